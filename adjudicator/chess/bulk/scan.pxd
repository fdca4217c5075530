# Cython declarations for scan.py (compiled by setup.py; scan.py runs as plain Python without them)
cdef unsigned long long FULL, ONE, DEBRUIJN, NOT_A, NOT_H, NOT_AB, NOT_GH, DARK, LIGHT, FILE_A, RANK_1, ZOB_TURN, KEYP
cdef int EP_FLAG, CASTLE_FLAG, DOUBLE_FLAG, MAXP
cdef int TURN, EP, CASTLE, HALF, FULLMOVE, RESULT_CODE
cdef int START_TURN, START_EP, START_CASTLE, START_HALF, START_FULL
cdef unsigned long long KNIGHT_ATT[64]
cdef unsigned long long KING_ATT[64]
cdef unsigned long long PAWN_ATT[128]
cdef unsigned long long RAY[512]
cdef int CASTLE_MASK[64]
cdef int BIT_INDEX[64]
cdef unsigned long long ZOB[793]
cdef unsigned long long BB[8]
cdef unsigned long long START_BB[8]
cdef unsigned long long H_BB[160008]
cdef int H_META[20001]
cdef int H_HALF[20001]
cdef int H_FULL[20001]
cdef unsigned long long H_KEY[20001]
cdef int SLOT[65536]
cdef int GROUP[20001]
cdef int COUNT[20001]
cdef int MOVES[20001]
cdef int LETTER[128]
cdef int LOWER[128]
cdef int CLK[2]

# the text being read, where it holds one byte a character (hold() in scan.py)
from cpython.unicode cimport PyUnicode_KIND, PyUnicode_1BYTE_KIND, PyUnicode_1BYTE_DATA, PyUnicode_FindChar
cdef const unsigned char* BUF
cdef bint ONE_BYTE
