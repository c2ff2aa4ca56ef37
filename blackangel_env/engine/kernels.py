"""Typed loops over the state buffer for the rule modules' bulk moves, where Python's cost per element shows:

* ``scroll_board(s, n_strips, lay)``: the space board scrolls one strip under the ship (Sequence B.3, called by
  ``black_angel.advance_black_angel`` once strip 1 is ejected): the hexes (terrain, comet, icons, card, ships)
  and strips 2..n move one strip toward the board, strip 1 goes last flipped (``lay``: the terrain, comet flags
  and Ravager icons of its other face), and the Mission cards in Space move with their hexes;
* ``take_supply_dice(s, wanted)``: the dice a reroll takes from the supply (Sequence B.1, the neutral's dice;
  called by ``dice._roll_dice``), an undamaged die of the colour first (rules decision R-B1), each handed to its
  seat unreserved with its Damage cube removed; it returns the dice taken and the (seat, colour) of each damaged
  one (whose penalty the caller scores);
* ``roll_dice(s, dice)``: those dice rolled with the game's generator, the numbers ``Generator.random`` would give
  (compiled, drawn in C through the generator's ``bitgen_t``: ``kernels.pxd``);
* ``shuffle_list(s, items)``: a list shuffled in place with the game's generator, the swaps ``Generator.shuffle``
  makes (compiled, its draws made in C through the generator's ``bitgen_t``, as ``roll_dice``'s);
* ``return_dice(s, seat)``: every die in a seat's compartment back to the supply (Sequence B.1's reroll starts so),
  unreserved and blank; it returns the total of their values (the VP the player loses for them);
* ``unreserved_dice(s, seat)``: the dice in a seat's compartment that are not reserved (those B.1 may reserve);
* ``store_grid_debris(s, seat)``: the debris on the tiles of a seat's grid back to its storage (B.2 and final
  scoring);
* ``cards_at(s, code)``: the Mission cards whose location is ``code`` (a hand: ``MC_HAND + seat``, ...);
* ``hex_cards(s, lo, hi)``: the Mission cards in Space on a run of hexes (strip 1's, ejected at B.3);
* ``ships_to_supply(s, lo, hi)``: the ships on a run of hexes off the board, their pilots home (B.3, rules-notes D5);
* ``ship_hexes(s, seat)``: the hexes holding a ship of a seat;
* ``seed_sequence_words(entropy, spawn_key, n)``: numpy's SeedSequence words (``uint32_words`` splits an integer as
  it does), from which ``engine.rollouts`` seeds its games' generators.
* ``mask_rows(legal, out)``: lists of action ids written as the rows of an int8 mask (``engine.legal_masks``).

Compiled by Cython (pure-Python mode, this file is the one source; interpreted where no extension was built or
with ``BLACKANGEL_INTERPRETED=1``): the buffer is written through a typed memoryview, every index checked.  The
positions of the fields come from the state's layout (``_layout``, built once per layout).
"""

try:
    import cython
except ModuleNotFoundError:            # Cython is needed to build, not to run: the interpreted path uses the shim
    from .. import _cython_shim as cython

from ..state import State
from ..state import Registers           # compiled: the C type (cimported by the .pxd)
if not cython.compiled:                 # compiled: the inline C function of _registers.pxd and the C
    from ..state import registers       # constants of _state_constants.pxd (cimported by the .pxd)
    from ..state import (
        BOT, DIE_SUPPLY, MAX_SEATS, MC_SPACE,
    )

_DIE_SUPPLY = cython.declare(cython.int, DIE_SUPPLY)
_BOT = cython.declare(cython.int, BOT)
_MC_SPACE = cython.declare(cython.int, MC_SPACE)


@cython.cclass
class _Layout:
    """Where the fields these loops move start in the state buffer (one per layout, cached by ``_layout``)."""

    fields: object
    n_hexes: cython.Py_ssize_t
    hex_terrain: cython.Py_ssize_t
    hex_comet: cython.Py_ssize_t
    hex_icons: cython.Py_ssize_t
    hex_card: cython.Py_ssize_t
    hex_ship: cython.Py_ssize_t
    strip_id: cython.Py_ssize_t
    strip_face: cython.Py_ssize_t
    max_strips: cython.Py_ssize_t
    mc_where: cython.Py_ssize_t
    mc_hex: cython.Py_ssize_t
    n_missions: cython.Py_ssize_t
    grid: cython.Py_ssize_t
    debris: cython.Py_ssize_t
    tile_debris: cython.Py_ssize_t
    n_tiles: cython.Py_ssize_t
    die_value: cython.Py_ssize_t
    die_owner: cython.Py_ssize_t
    die_reserved: cython.Py_ssize_t
    die_damaged: cython.Py_ssize_t
    robots_supply: cython.Py_ssize_t

    def __init__(self, fields: dict):
        self.fields = fields
        self.n_hexes = fields["hex_terrain"][2] - fields["hex_terrain"][1]
        for name in ("hex_comet", "hex_icons", "hex_card"):
            if fields[name][2] - fields[name][1] != self.n_hexes:
                raise RuntimeError(f"blackangel_env.engine.kernels: {name} is not one value a hex")
        self.hex_terrain = fields["hex_terrain"][1]
        self.hex_comet = fields["hex_comet"][1]
        self.hex_icons = fields["hex_icons"][1]
        self.hex_card = fields["hex_card"][1]
        if fields["hex_ship"][2] - fields["hex_ship"][1] != 2 * self.n_hexes:
            raise RuntimeError("blackangel_env.engine.kernels: hex_ship is not two seats a hex")
        self.hex_ship = fields["hex_ship"][1]
        self.strip_id = fields["strip_id"][1]
        self.strip_face = fields["strip_face"][1]
        self.max_strips = fields["strip_id"][2] - fields["strip_id"][1]
        self.mc_where = fields["mc_where"][1]
        self.mc_hex = fields["mc_hex"][1]
        self.n_missions = fields["mc_where"][2] - fields["mc_where"][1]
        self.grid = fields["grid"][1]
        self.debris = fields["debris"][1]
        self.tile_debris = fields["tile_debris"][1]
        self.n_tiles = fields["tile_debris"][2] - fields["tile_debris"][1]
        self.die_value = fields["die_value"][1]
        self.die_owner = fields["die_owner"][1]
        self.die_reserved = fields["die_reserved"][1]
        self.die_damaged = fields["die_damaged"][1]
        self.robots_supply = fields["robots_supply"][1]


_LAYOUTS: dict = {}
_last_fields = None            # the layout met last (a process plays one layout, as a rule)
_last_layout = None


@cython.ccall
def _layout(s: State) -> _Layout:
    global _last_fields, _last_layout
    m = cython.declare(Registers, registers(s))
    f = m._fields
    if f is _last_fields:
        return _last_layout
    t: _Layout = _LAYOUTS.get(id(f))
    if t is None or t.fields is not f:
        t = _LAYOUTS[id(f)] = _Layout(f)
    _last_fields = f
    _last_layout = t
    return t



# --- the board's scroll (B.3) ---------------------------------------------------------------------------------

def scroll_board(s: State, n_strips: int, lay) -> None:
    """Strips 2..``n_strips`` move one strip toward the board with their hexes (terrain, comet, icons, card and
    ships) and the Mission cards in Space on them (``mc_hex`` - 5); strip 1 goes last, flipped, its hexes laid
    from ``lay`` (a (3, 5) int16 array: terrain, comet flags, Ravager icons), with no card and no ship.  The
    caller has ejected strip 1's cards and ships first."""
    L: _Layout = _layout(s)
    if not 1 <= n_strips <= L.max_strips or n_strips * 5 > L.n_hexes:
        raise ValueError(f"scroll_board: {n_strips} strips on a board of {L.max_strips}")
    m = cython.declare(Registers, registers(s))
    _scroll(m.r, L, n_strips, lay)


@cython.cfunc
@cython.boundscheck(False)              # every index below is within the layout's fields (n_strips checked)
@cython.wraparound(False)
def _scroll(buf: cython.short[::1], L: _Layout, n_strips: cython.Py_ssize_t, lay: cython.const[cython.short][:, :]):
    if lay.shape[0] < 3 or lay.shape[1] < 5:
        raise ValueError(f"scroll_board: the strip to lay is {lay.shape[0]} x {lay.shape[1]}, not 3 x 5")
    nh: cython.Py_ssize_t = n_strips * 5
    last: cython.Py_ssize_t = n_strips - 1
    r: cython.Py_ssize_t
    h: cython.Py_ssize_t
    o: cython.Py_ssize_t
    first_id: cython.short = buf[L.strip_id]
    first_face: cython.short = buf[L.strip_face]
    rows = cython.declare(cython.Py_ssize_t[4])
    rows[0] = L.hex_terrain
    rows[1] = L.hex_comet
    rows[2] = L.hex_icons
    rows[3] = L.hex_card
    for r in range(4):                                   # terrain, comet, icons, card: one strip toward the board
        o = rows[r]
        for h in range(nh - 5):
            buf[o + h] = buf[o + h + 5]
    o = L.hex_ship
    for h in range(2 * (nh - 5)):
        buf[o + h] = buf[o + h + 10]
    for h in range(2 * (nh - 5), 2 * nh):
        buf[o + h] = -1
    o = L.hex_card
    for h in range(nh - 5, nh):
        buf[o + h] = -1
    for h in range(last):
        buf[L.strip_id + h] = buf[L.strip_id + h + 1]
        buf[L.strip_face + h] = buf[L.strip_face + h + 1]
    buf[L.strip_id + last] = first_id
    buf[L.strip_face + last] = 1 - first_face
    for r in range(3):                                   # lay the flipped strip: terrain, comet, icons
        o = rows[r] + nh - 5
        for h in range(5):
            buf[o + h] = lay[r, h]
    for h in range(L.n_missions):
        if buf[L.mc_where + h] == _MC_SPACE:
            buf[L.mc_hex + h] -= 5


# --- dice rolled (B.1) -------------------------------------------------------------------------------------

def roll_dice(s: State, dice: list) -> None:
    """Roll each die of ``dice`` (die ids 0-17, in order): its value becomes ``faces[int(x * len(faces))]`` of the
    components' die faces, x the state generator's next number of ``Generator.random`` (one number a die, in the
    order given: the numbers one ``Generator.random(len(dice))`` call gives).  Compiled, the numbers are drawn
    in C from the generator's bit generator (``next_double``, which ``Generator.random`` calls for each number);
    interpreted, by ``Generator.random``."""
    faces = s.comp.die_faces
    n: cython.Py_ssize_t = len(dice)
    i: cython.Py_ssize_t
    d: cython.Py_ssize_t
    nf: cython.Py_ssize_t = len(faces)
    if n == 0:
        return
    for i in range(n):                                   # all checked before any number is drawn
        d = dice[i]
        if not 0 <= d < 18:
            raise ValueError(f"roll_dice: die {d} is not a die id 0-17")
    L: _Layout = _layout(s)
    m = cython.declare(Registers, registers(s))
    buf: cython.short[:] = m.r
    rng = s.rng
    if cython.compiled:
        bg: cython.pointer(blackangel_bitgen_t) = cython.cast(  # noqa: F821 - declared in kernels.pxd
            cython.pointer(blackangel_bitgen_t),  # noqa: F821
            PyCapsule_GetPointer(rng.bit_generator.capsule, b"BitGenerator"))  # noqa: F821
        for i in range(n):
            d = dice[i]
            buf[L.die_value + d] = faces[cython.cast(cython.Py_ssize_t, bg.next_double(bg.state) * nf)]
    else:
        for d, x in zip(dice, rng.random(n).tolist()):
            buf[L.die_value + d] = faces[int(x * nf)]


@cython.locals(i=cython.Py_ssize_t, n=cython.Py_ssize_t, u=cython.uint, mask=cython.uint, j=cython.uint)
def shuffle_list(s: State, items: list) -> None:
    """Shuffle the list ``items`` in place with the state's generator: the same swaps from the same draws as
    ``Generator.shuffle(items)`` (its pass over a Python sequence: for i from the last index down to 1, swap item i
    with item j, j drawn uniformly from 0..i by numpy's ``random_interval``: the generator's next 32-bit number
    masked to the smallest all-ones mask covering i, drawn again while above i).  Interpreted, by
    ``Generator.shuffle`` itself; compiled, drawn in C from its bit generator (``next_uint32``), as ``roll_dice``
    draws (the tests compare the two on many generators and lengths)."""
    n = len(items)
    if n < 2:
        return
    rng = s.rng
    if not cython.compiled:
        rng.shuffle(items)
        return
    if n > 0xFFFFFFFF:
        raise ValueError(f"shuffle_list: {n} items are more than 32-bit draws cover")
    bg: cython.pointer(blackangel_bitgen_t) = cython.cast(  # noqa: F821 - declared in kernels.pxd
        cython.pointer(blackangel_bitgen_t),  # noqa: F821
        PyCapsule_GetPointer(rng.bit_generator.capsule, b"BitGenerator"))  # noqa: F821
    for i in range(n - 1, 0, -1):
        u = cython.cast(cython.uint, i)
        mask = u
        mask |= mask >> 1
        mask |= mask >> 2
        mask |= mask >> 4
        mask |= mask >> 8
        mask |= mask >> 16
        j = bg.next_uint32(bg.state) & mask
        while j > u:
            j = bg.next_uint32(bg.state) & mask
        items[i], items[j] = items[j], items[i]


def return_dice(s: State, seat: int) -> int:
    """Every die in ``seat``'s compartment (owner ``seat``) back to the supply: owner ``DIE_SUPPLY``, unreserved,
    value 0; the sum of the values they showed."""
    if not 0 <= seat < MAX_SEATS:
        raise ValueError(f"return_dice: seat {seat!r} is not a seat 0-{MAX_SEATS - 1}")
    L: _Layout = _layout(s)
    m = cython.declare(Registers, registers(s))
    buf: cython.short[:] = m.r
    p: cython.short = seat
    d: cython.Py_ssize_t
    total: cython.long = 0
    for d in range(18):
        if buf[L.die_owner + d] == p:
            total += buf[L.die_value + d]
            buf[L.die_owner + d] = _DIE_SUPPLY
            buf[L.die_reserved + d] = 0
            buf[L.die_value + d] = 0
    return total


def unreserved_dice(s: State, seat: int) -> list:
    """The dice (ids, ascending) in ``seat``'s compartment that are not reserved."""
    if not 0 <= seat < MAX_SEATS:
        raise ValueError(f"unreserved_dice: seat {seat!r} is not a seat 0-{MAX_SEATS - 1}")
    L: _Layout = _layout(s)
    m = cython.declare(Registers, registers(s))
    buf: cython.short[:] = m.r
    p: cython.short = seat
    d: cython.Py_ssize_t
    out: list = []
    for d in range(18):
        if buf[L.die_owner + d] == p and not buf[L.die_reserved + d]:
            out.append(d)
    return out


# --- debris on tiles (B.2, final scoring) -----------------------------------------------------------------------

def store_grid_debris(s: State, seat: int) -> int:
    """Every debris on a tile of ``seat``'s grid back to the seat's storage (a tile holds at most one); the number
    moved."""
    if not 0 <= seat < 4:
        raise ValueError(f"store_grid_debris: seat {seat!r} is not a player seat 0-3")
    L: _Layout = _layout(s)
    m = cython.declare(Registers, registers(s))
    buf: cython.short[:] = m.r
    p: cython.Py_ssize_t = seat
    row: cython.Py_ssize_t = L.grid + 9 * p
    cell: cython.Py_ssize_t
    t: cython.Py_ssize_t
    k: cython.int = 0
    for cell in range(9):                                # checked before anything moves
        t = buf[row + cell]
        if t >= L.n_tiles:
            raise ValueError(f"store_grid_debris: tile {t} in player_{seat}'s grid is not a tile")
    for cell in range(9):
        t = buf[row + cell]
        if t >= 0:
            if buf[L.tile_debris + t]:
                buf[L.tile_debris + t] = 0
                k += 1
    buf[L.debris + p] += k
    return k


# --- Mission cards by location ---------------------------------------------------------------------------------

def cards_at(s: State, code: int) -> list:
    """The Mission cards (ids, ascending) whose ``mc_where`` is ``code``."""
    L: _Layout = _layout(s)
    m = cython.declare(Registers, registers(s))
    buf: cython.short[:] = m.r
    c: cython.short = code
    i: cython.Py_ssize_t
    out: list = []
    for i in range(L.n_missions):
        if buf[L.mc_where + i] == c:
            out.append(i)
    return out


def hex_cards(s: State, lo: int, hi: int) -> list:
    """The Mission cards in Space on hexes ``lo``..``hi - 1``, hex by hex."""
    L: _Layout = _layout(s)
    if not 0 <= lo <= hi <= L.n_hexes:
        raise ValueError(f"hex_cards: hexes {lo}..{hi} are not within the board's {L.n_hexes}")
    m = cython.declare(Registers, registers(s))
    buf: cython.short[:] = m.r
    h: cython.Py_ssize_t
    out: list = []
    for h in range(lo, hi):
        if buf[L.hex_card + h] >= 0:
            out.append(buf[L.hex_card + h])
    return out


def ships_to_supply(s: State, lo: int, hi: int) -> int:
    """Every ship on hexes ``lo``..``hi - 1`` leaves the board for the general supply, its pilot back to its
    player's robot supply (the neutral player's and Hal's ships have none: seat ``BOT``); the number of ships."""
    L: _Layout = _layout(s)
    if not 0 <= lo <= hi <= L.n_hexes:
        raise ValueError(f"ships_to_supply: hexes {lo}..{hi} are not within the board's {L.n_hexes}")
    m = cython.declare(Registers, registers(s))
    buf: cython.short[:] = m.r
    i: cython.Py_ssize_t
    q: cython.Py_ssize_t
    k: cython.int = 0
    for i in range(L.hex_ship + 2 * lo, L.hex_ship + 2 * hi):
        q = buf[i]
        if q >= 0:
            if q != _BOT:
                buf[L.robots_supply + q] += 1
            buf[i] = -1
            k += 1
    return k


def ship_hexes(s: State, seat: int) -> list:
    """The hexes (ascending) where ``seat`` has a ship (at most one a hex: two ships of a hex are of different
    players)."""
    L: _Layout = _layout(s)
    m = cython.declare(Registers, registers(s))
    buf: cython.short[:] = m.r
    p: cython.short = seat
    h: cython.Py_ssize_t
    out: list = []
    for h in range(L.n_hexes):
        if buf[L.hex_ship + 2 * h] == p or buf[L.hex_ship + 2 * h + 1] == p:
            out.append(h)
    return out


# --- dice taken from the supply (B.1) -------------------------------------------------------------------------

def take_supply_dice(s: State, wanted) -> tuple[list, list]:
    """For each (seat, colour, count) of ``wanted`` in order, ``count`` dice of that colour from the supply to
    the seat's compartment while the supply has one (a workstation may hold more robots than there are dice: the
    player rolls fewer, rulebook B.1): an undamaged die first, else a damaged one, which loses its
    cube.  Each die taken is unreserved (its value is the caller's to roll).  Returns the dice taken, in order,
    and the (seat, colour) of each damaged die taken, in order."""
    L: _Layout = _layout(s)
    wanted = list(wanted)
    for seat, colour, count in wanted:                   # all checked before any die moves
        if not (0 <= seat < MAX_SEATS and 0 <= colour < 3 and count >= 0):
            raise ValueError(f"take_supply_dice: (seat, colour, count) {(seat, colour, count)!r} is not a seat "
                             f"0-{MAX_SEATS - 1}, a colour 0-2 and a count >= 0")
    taken: list = []
    damaged: list = []
    m = cython.declare(Registers, registers(s))
    buf: cython.short[:] = m.r
    for seat, colour, count in wanted:
        _take(buf, L, seat, colour, count, taken, damaged)
    return taken, damaged


@cython.cfunc
def _take(buf: cython.short[:], L: _Layout, seat: cython.short, colour: cython.Py_ssize_t, count: cython.int,
          taken: list, damaged: list):
    base: cython.Py_ssize_t = colour * 6
    i: cython.Py_ssize_t
    d: cython.Py_ssize_t
    k: cython.int
    for k in range(count):
        d = -1
        for i in range(base, base + 6):
            if buf[L.die_owner + i] == _DIE_SUPPLY:
                if not buf[L.die_damaged + i]:
                    d = i
                    break
                if d < 0:
                    d = i
        if d < 0:
            return
        if buf[L.die_damaged + d]:
            buf[L.die_damaged + d] = 0
            damaged.append((seat, colour))
        buf[L.die_owner + d] = seat
        buf[L.die_reserved + d] = 0
        taken.append(d)


# --- seeds of the rollouts' generators (numpy's SeedSequence, computed in C) --------------------------------------

_INIT_A = cython.declare(cython.uint, 0x43b0d7e5)        # the constants of numpy's SeedSequence (O'Neill's seed_seq_fe)
_MULT_A = cython.declare(cython.uint, 0x931e8875)
_INIT_B = cython.declare(cython.uint, 0x8b51f9dd)
_MULT_B = cython.declare(cython.uint, 0x58f38ded)
_MIX_MULT_L = cython.declare(cython.uint, 0xca01f9dd)
_MIX_MULT_R = cython.declare(cython.uint, 0x4973f715)
_MASK32 = cython.declare(cython.uint, 0xFFFFFFFF)


def uint32_words(value: int) -> list:
    """A non-negative integer as numpy's SeedSequence reads it: 32-bit words, lowest first ([0] for 0)."""
    if value < 0:
        raise ValueError(f"uint32_words: {value!r} is negative")
    if value == 0:
        return [0]
    out: list = []
    while value > 0:
        out.append(value & 0xFFFFFFFF)
        value >>= 32
    return out


@cython.cfunc
@cython.inline
def _hashmix(value: cython.uint, h: cython.pointer(cython.uint)) -> cython.uint:
    value = (value ^ h[0]) & _MASK32
    h[0] = (h[0] * _MULT_A) & _MASK32
    value = (value * h[0]) & _MASK32
    return value ^ (value >> 16)


@cython.cfunc
@cython.inline
def _mix(x: cython.uint, y: cython.uint) -> cython.uint:
    r: cython.uint = (_MIX_MULT_L * x - _MIX_MULT_R * y) & _MASK32
    return r ^ (r >> 16)


_PCG64_MULT = (2549297995355413924 << 64) + 4865540595714422341     # PCG64's 128-bit LCG multiplier
_MASK128 = (1 << 128) - 1


def pcg64_seeded_snapshot(words: list) -> tuple:
    """The state of a PCG64 seeded by a SeedSequence whose ``generate_state(8)`` gives ``words`` (PCG64 reads them
    as ``generate_state(4, uint64)``: the initial state and the stream, 128 bits each), as a
    ``generator_state`` snapshot (``generator_state.overwrite`` puts a generator in it).  ``engine.rollouts``
    seeds its generators with it; the tests compare it with numpy's seeding."""
    if len(words) != 8:
        raise ValueError(f"pcg64_seeded_snapshot: 8 words expected, got {len(words)}")
    v = [words[2 * k] | (words[2 * k + 1] << 32) for k in range(4)]
    initstate, initseq = (v[0] << 64) | v[1], (v[2] << 64) | v[3]
    inc = ((initseq << 1) | 1) & _MASK128
    state = ((inc + initstate) * _PCG64_MULT + inc) & _MASK128        # PCG's seeding: step from 0, add, step
    return state.to_bytes(16, "little") + inc.to_bytes(16, "little"), _NO_UINT32


_NO_UINT32 = bytes(8)               # a fresh PCG64's has_uint32 and uinteger


def seed_sequence_words(entropy: list, spawn_key: list, n_words: int) -> list:
    """``numpy.random.SeedSequence(entropy, spawn_key=spawn_key).generate_state(n_words)`` (pool size 4) as a list
    of ints: ``entropy`` and ``spawn_key`` given as their 32-bit words (``uint32_words``; each spawn key entry's
    words in turn).  ``engine.rollouts`` seeds its generators with it at a tenth of numpy's cost; the tests compare
    it with numpy's."""
    if n_words < 0:
        raise ValueError(f"seed_sequence_words: n_words must be >= 0, got {n_words!r}")
    for w in list(entropy) + list(spawn_key):
        if not 0 <= w <= 0xFFFFFFFF:
            raise ValueError(f"seed_sequence_words: {w!r} is not a 32-bit word")
    words: list = list(entropy)
    if spawn_key and len(words) < 4:
        words.extend([0] * (4 - len(words)))
    words.extend(spawn_key)
    n: cython.Py_ssize_t = len(words)
    pool = cython.declare(cython.uint[4])
    h = cython.declare(cython.uint[1])
    i: cython.Py_ssize_t
    j: cython.Py_ssize_t
    h[0] = _INIT_A
    for i in range(4):
        pool[i] = _hashmix(words[i] if i < n else 0, h)
    for i in range(4):
        for j in range(4):
            if i != j:
                pool[j] = _mix(pool[j], _hashmix(pool[i], h))
    for i in range(4, n):
        for j in range(4):
            pool[j] = _mix(pool[j], _hashmix(words[i], h))
    out: list = []
    hb: cython.uint = _INIT_B
    v: cython.uint
    for i in range(n_words):
        v = (pool[i % 4] ^ hb) & _MASK32
        hb = (hb * _MULT_B) & _MASK32
        v = (v * hb) & _MASK32
        out.append(v ^ (v >> 16))
    return out


@cython.boundscheck(False)
@cython.wraparound(False)
def mask_rows(legal: list, out: cython.schar[:, ::1]) -> None:
    """Row i of ``out`` (int8, one column per action id) becomes the mask of the action ids ``legal[i]``: 1 at
    each, 0 elsewhere (``engine.legal_masks``).  An id outside the row raises IndexError, with the rows before it
    written."""
    if len(legal) != out.shape[0]:
        raise ValueError(f"mask_rows: {len(legal)} lists of action ids for {out.shape[0]} rows")
    n: cython.Py_ssize_t = out.shape[1]
    i: cython.Py_ssize_t
    j: cython.Py_ssize_t
    a: cython.Py_ssize_t
    if not cython.compiled:             # interpreted: numpy's fill and indexing instead of the element loops
        out[...] = 0
        for i, ids in enumerate(legal):
            if ids:
                bad = [a for a in ids if not 0 <= a < n]
                if bad:
                    raise IndexError(f"mask_rows: action id {bad[0]} outside a row of {n}")
                out[i, ids] = 1
        return
    for i in range(out.shape[0]):
        ids: list = legal[i]
        for j in range(n):
            out[i, j] = 0
        for j in range(len(ids)):
            a = ids[j]
            if a < 0 or a >= n:
                raise IndexError(f"mask_rows: action id {a} outside a row of {n}")
            out[i, a] = 1
