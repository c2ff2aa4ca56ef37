"""Fixed vocabulary shared by the component data, the rules engine and the encodings.

Every integer code used in `components.yaml` and in the game state is defined here, once.
Nothing in this module depends on any other module of the package.
"""

# Colours (dice, actions, Mission cards, Technology tiles, hexes) -------------------------------
ORANGE, GRAY, GREEN = 0, 1, 2
COLOURS = ("orange", "gray", "green")
N_COLOURS = 3

# Board actions (index 0..5 = printed action 1..6) ----------------------------------------------
N_ACTIONS = 6
ACT_DISCOVER, ACT_REPAIR, ACT_DESTROY, ACT_COMMAND = 0, 1, 2, 3
ACTION_KINDS = ("discover", "repair", "destroy", "command")

# Goods: indices into cost/gain vectors ------------------------------------------------------------
G_SHIP, G_RESOURCE, G_ROBOT, G_DEBRIS, G_VP, G_TECH, G_RAVAGER, G_MISSION = range(8)
GOODS = ("ship", "resource", "robot", "debris", "vp", "tech", "ravager", "mission")
N_GOODS = 8

# Mission cards ----------------------------------------------------------------------------------------
N_MISSIONS = 60
MISSION_ACTIVATION, MISSION_NEUTRALIZATION = 0, 1
MISSION_KINDS = ("activation", "neutralization")
# neutralization ("upon ejection") effect kinds
NEUT_NONE, NEUT_FIXED, NEUT_PER_SPACE, NEUT_PER_TUCKED = -1, 0, 1, 2
NEUT_KINDS = ("fixed", "per_card_in_space", "per_card_tucked")

# Ravager cards --------------------------------------------------------------------------------------
N_RAVAGERS = 30
RAV_DAMAGE_NEXT, RAV_DAMAGE_DIE, RAV_DISCARD_MISSION, RAV_DISCARD_RAVAGER, RAV_ROBOT = range(5)
RAVAGER_EFFECTS = ("damage_next_action", "damage_die", "discard_mission", "discard_ravager", "robot_on_card")

# Tiles: one id space for all tiles that can sit in a 3x3 technology grid -----------------------
N_TECH = 48            # ids 0..47: standard Technology tiles
START_TILE0 = 48       # ids 48..59: Starting tiles, player p owns 48 + 3p + k
N_START = 12
ADV_TILE0 = 60         # ids 60..75: Advanced Technology tiles
N_ADVANCED = 16
N_TILES = 76
TILE_TECH, TILE_START, TILE_ADVANCED = 0, 1, 2

# Technology tile effects, standard side (also the options of Starting tiles)
TE_NONE = -1
(TE_VP, TE_SHIP, TE_RESOURCE, TE_ROBOT, TE_MOVE_SHIP, TE_DEBRIS, TE_MOVE_ROBOT,
 TE_ACT_VERTICAL, TE_ACT_HORIZONTAL, TE_DRAW_MISSION, TE_OR) = range(11)
TILE_EFFECTS = ("vp", "take_ship", "take_resource", "take_robot", "move_ship", "take_debris",
                "move_robot", "activate_vertical", "activate_horizontal", "draw_mission", "or")

# Boost side ("1x", advanced rules)
BE_NONE = -1
BE_VP_ON_ACTION, BE_SET_THREE, BE_CHANGE_COLOUR, BE_FREE_RESERVE = range(4)
BOOST_EFFECTS = ("vp_on_action", "set_three", "change_colour", "free_reserve")

# Advanced Technology tiles (end-game scoring)
(AE_TILES_OF_COLOUR, AE_EJECTED_TECH, AE_DEBRIS, AE_RAVAGERS, AE_ADVANCED,
 AE_CARDS_IN_SPACE) = range(6)
ADVANCED_EFFECTS = ("tiles_of_colour", "ejected_tech", "debris", "ravager_cards", "advanced_tiles",
                    "cards_in_space")

# Space hexes -------------------------------------------------------------------------------------------
# terrain: 0..2 = alien territory of that colour, then:
T_ASTEROID, T_SPES = 3, 4
TERRAINS = ("orange", "gray", "green", "asteroid", "spes")
HEXES_PER_STRIP = 5    # columns -2..+2, index 0..4, apex = index 2

# Hal (solitaire) -------------------------------------------------------------------------------------
N_HAL_CARDS = 12
HAL_DISCOVER_ADVANCED_FIRST, HAL_DISCOVER_TECH_ONLY = 0, 1
HAL_CLOCKWISE, HAL_COUNTERCLOCKWISE = 0, 1
HAL_DIFFICULTIES = ("easy", "standard", "difficult", "extreme")
