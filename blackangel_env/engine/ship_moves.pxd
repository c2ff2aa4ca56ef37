# Compile-time declarations of ship_moves.py (read only by Cython).  The build (setup.py) defines
# BLACKANGEL_SOURCE_SHA256, the SHA-256 of ship_moves.py as compiled; the module exposes it as SOURCE_SHA256 and
# the marker string lets blackangel_env._compiled check, without loading the extension, that it was built from
# the .py beside it.
cdef extern from *:
    """
    #ifndef BLACKANGEL_SOURCE_SHA256
    #define BLACKANGEL_SOURCE_SHA256 "unknown"
    #endif
    static const char *blackangel_source_marker = "blackangel-source-sha256:" BLACKANGEL_SOURCE_SHA256 ";";
    """
    const char *blackangel_source_marker
