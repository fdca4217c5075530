# Cython declarations for kernel.py (compiled by setup.py; kernel.py runs as plain Python without them)
cdef extern from *:  # the compiler's bit scans, one processor instruction (lsb and msb in kernel.py)
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_clzll(unsigned long long) nogil
cdef unsigned long long FULL, ONE, DEBRUIJN, M1, M2, M4, H01, DARK, FILE_A, FILE_H
cdef unsigned long long RANK_1, RANK_2, RANK_7, RANK_8, RANKS_3_TO_6, PUSH_WHITE, PUSH_BLACK, ZOB_TURN
cdef int MAXPLY, LINE_LIMIT, MAXMOVES, EP_FLAG, CASTLE_FLAG, DOUBLE_FLAG, TT_BITS
cdef int KIND_SHIFT, MOVE_MASK, PAWN_KIND, KING_KIND
cdef unsigned long long TT_MASK
cdef unsigned long long KNIGHT_ATT[64]
cdef unsigned long long KING_ATT[64]
cdef unsigned long long PAWN_ATT[128]
cdef unsigned long long RAY[512]
cdef unsigned long long BETWEEN[4096]
cdef unsigned long long LINE[4096]
cdef int KNIGHT_DIST[4096]
cdef int CASTLE_MASK[64]
cdef int BIT_INDEX[64]
cdef unsigned long long ZOB[793]
cdef unsigned long long S_BB[8192]
cdef int S_TURN[1024]
cdef int S_EP[1024]
cdef int S_CASTLE[1024]
cdef unsigned long long S_KEY[1024]
cdef int MOVES[262144]
cdef int LINE_MOVES[1024]
cdef unsigned long long TT_KEY[262144]
cdef int TT_DEPTH[262144]
cdef unsigned char TT_GEN[262144]
cdef int PLY, WINNER, MAX_DEPTH, INTERRUPTED, ABORTED, USE_TT, GENERATION, MATE_LENGTH
cdef long long NODES, NODE_LIMIT, LOCAL_NODES, LOCAL_LIMIT
cdef int CLOSURE_MAX, CLOSURE_SLOTS_BITS, CLOSURE_MASK
cdef unsigned long long CL_POS[8388608]
cdef int CL_PARENT[1048576]
cdef int CL_MOVE[1048576]
cdef int CL_SLOT[4194304]
