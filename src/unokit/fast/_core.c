/* unokit.fast._core: the rules state machine of unokit.core in C11.
 *
 * unokit/core/ is the reference: every function here names the Python function it mirrors,
 * and tests/test_fast_differential.py plays random games on both, comparing the legal actions
 * at every step and the whole position after every action. The Python wrapper
 * (unokit/fast/__init__.py) reads and checks positions with the engine's own code
 * (core/position.py) and hands the fields to this core; refusals are explained by the engine
 * too (core/legality.py's reason), so this file holds only the rules and the generators.
 *
 * Sections, and the Python they mirror:
 *   SHA-512, Mersenne Twister ...... CPython's random.Random (seeding from str and int, getstate)
 *   shuffles ....................... core/shuffles.py (shuffle, shuffle_tail, randbelow)
 *   cards, rules ................... core/cards.py, core/editions.py, core/rules.py
 *   piles .......................... core/piles.py (give, reshuffle: T6)
 *   uno calls ...................... core/uno_calls.py (P1, P2)
 *   scoring ........................ core/scoring.py (E1-E3, M2, M4, the blocked round)
 *   draw cards ..................... core/draw_cards.py (T3, T4, P3, C6, stacking)
 *   drawing ........................ core/drawing.py (T2, P5)
 *   house rules, specials .......... core/house_rules.py (seven_zero), core/specials.py (C5)
 *   the turn machine ............... core/game.py (_do, _play, _reverse)
 *   legality ....................... core/legality.py (legal)
 *   deal ........................... core/deal.py (S1-S3)
 *   the Python type ................ Game's queries; fields in and out for core/state.py
 *   batch .......................... unokit/bench.py's loops, played without Python between steps
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAXS 10      /* core/actions.py MAX_SEATS */
#define MAXC 112     /* the largest deck (core/editions.py) */
#define MAXW 64      /* the catch window: never more than a seat's worth per play */
#define N_ACTIONS 175
#define BLOCKED_AFTER 200

/* ------------------------------------------------------------------ SHA-512 (hashlib.sha512) */

static const uint64_t K512[80] = {
    0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL, 0xe9b5dba58189dbbcULL,
    0x3956c25bf348b538ULL, 0x59f111f1b605d019ULL, 0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL,
    0xd807aa98a3030242ULL, 0x12835b0145706fbeULL, 0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL,
    0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL, 0xc19bf174cf692694ULL,
    0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL, 0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL,
    0x2de92c6f592b0275ULL, 0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL,
    0x983e5152ee66dfabULL, 0xa831c66d2db43210ULL, 0xb00327c898fb213fULL, 0xbf597fc7beef0ee4ULL,
    0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL, 0x06ca6351e003826fULL, 0x142929670a0e6e70ULL,
    0x27b70a8546d22ffcULL, 0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL, 0x53380d139d95b3dfULL,
    0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL, 0x92722c851482353bULL,
    0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL, 0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL,
    0xd192e819d6ef5218ULL, 0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL,
    0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL, 0x2748774cdf8eeb99ULL, 0x34b0bcb5e19b48a8ULL,
    0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL, 0x5b9cca4f7763e373ULL, 0x682e6ff3d6b2b8a3ULL,
    0x748f82ee5defb2fcULL, 0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
    0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL, 0xc67178f2e372532bULL,
    0xca273eceea26619cULL, 0xd186b8c721c0c207ULL, 0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL,
    0x06f067aa72176fbaULL, 0x0a637dc5a2c898a6ULL, 0x113f9804bef90daeULL, 0x1b710b35131c471bULL,
    0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL, 0x431d67c49c100d4cULL,
    0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL, 0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL,
};

static uint64_t ror64(uint64_t x, int r) { return (x >> r) | (x << (64 - r)); }

static void sha512_block(uint64_t h[8], const unsigned char *p)
{
    uint64_t w[80], a, b, c, d, e, f, g, hh;
    int i;
    for (i = 0; i < 16; i++) {
        w[i] = 0;
        for (int j = 0; j < 8; j++)
            w[i] = (w[i] << 8) | p[8 * i + j];
    }
    for (i = 16; i < 80; i++) {
        uint64_t s0 = ror64(w[i - 15], 1) ^ ror64(w[i - 15], 8) ^ (w[i - 15] >> 7);
        uint64_t s1 = ror64(w[i - 2], 19) ^ ror64(w[i - 2], 61) ^ (w[i - 2] >> 6);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    a = h[0]; b = h[1]; c = h[2]; d = h[3]; e = h[4]; f = h[5]; g = h[6]; hh = h[7];
    for (i = 0; i < 80; i++) {
        uint64_t S1 = ror64(e, 14) ^ ror64(e, 18) ^ ror64(e, 41);
        uint64_t ch = (e & f) ^ (~e & g);
        uint64_t t1 = hh + S1 + ch + K512[i] + w[i];
        uint64_t S0 = ror64(a, 28) ^ ror64(a, 34) ^ ror64(a, 39);
        uint64_t mj = (a & b) ^ (a & c) ^ (b & c);
        uint64_t t2 = S0 + mj;
        hh = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
}

/* The digest of msg (len < 112 here: a seed string), written to out[64]. */
static void sha512(const unsigned char *msg, size_t len, unsigned char out[64])
{
    uint64_t h[8] = {0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL,
                     0xa54ff53a5f1d36f1ULL, 0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL,
                     0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL};
    unsigned char buf[256];
    size_t total = ((len + 17 + 127) / 128) * 128, i;
    memset(buf, 0, sizeof buf);
    memcpy(buf, msg, len);
    buf[len] = 0x80;
    for (i = 0; i < 8; i++)
        buf[total - 1 - i] = (unsigned char)(((uint64_t)len * 8) >> (8 * i));
    for (i = 0; i < total; i += 128)
        sha512_block(h, buf + i);
    for (i = 0; i < 64; i++)
        out[i] = (unsigned char)(h[i / 8] >> (56 - 8 * (i % 8)));
}

/* ------------------------------------------------------------------ Mersenne Twister (_randommodule.c) */

typedef struct {
    uint32_t mt[624];
    int index;
} MT;

static void mt_init_genrand(MT *m, uint32_t s)
{
    m->mt[0] = s;
    for (int i = 1; i < 624; i++)
        m->mt[i] = 1812433253U * (m->mt[i - 1] ^ (m->mt[i - 1] >> 30)) + (uint32_t)i;
    m->index = 624;
}

static void mt_init_by_array(MT *m, const uint32_t *key, size_t klen)
{
    size_t i = 1, j = 0, k;
    uint32_t *mt = m->mt;
    mt_init_genrand(m, 19650218U);
    for (k = (624 > klen ? 624 : klen); k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++; j++;
        if (i >= 624) { mt[0] = mt[623]; i = 1; }
        if (j >= klen) j = 0;
    }
    for (k = 623; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= 624) { mt[0] = mt[623]; i = 1; }
    }
    mt[0] = 0x80000000U;
}

static uint32_t mt_next(MT *m)
{
    uint32_t y;
    uint32_t *mt = m->mt;
    if (m->index >= 624) {
        int kk;
        for (kk = 0; kk < 624 - 397; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + 397] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
        }
        for (; kk < 623; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + (397 - 624)] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
        }
        y = (mt[623] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[623] = mt[396] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
        m->index = 0;
    }
    y = mt[m->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* random.Random(text): version 2 seeds from the int of text's bytes followed by their SHA-512. */
static void mt_seed_text(MT *m, const char *text)
{
    unsigned char buf[256 + 64];
    uint32_t key[(256 + 64) / 4 + 1];
    size_t len = strlen(text), total, words, i;
    if (len > 256) len = 256;
    memcpy(buf, text, len);
    sha512((const unsigned char *)text, len, buf + len);
    total = len + 64;
    words = (total + 3) / 4;
    for (i = 0; i < words; i++) {  /* little-endian 32-bit words of the big-endian number */
        uint32_t w = 0;
        for (int b = 3; b >= 0; b--) {
            long pos = (long)total - 1 - (long)(4 * i) - b;
            w = (w << 8) | (pos >= 0 ? buf[pos] : 0U);
        }
        key[i] = w;
    }
    while (words > 1 && key[words - 1] == 0) words--;
    mt_init_by_array(m, key, words);
}

/* ------------------------------------------------------------------ shuffles (core/shuffles.py) */

static uint32_t getrandbits(MT *m, int k) { return k == 0 ? 0U : mt_next(m) >> (32 - k); }

static int bit_length(unsigned n) { int k = 0; while (n) { k++; n >>= 1; } return k; }

/* randbelow: rng.randrange(n), n >= 1 */
static int randbelow(MT *m, int n)
{
    int k = bit_length((unsigned)n);
    uint32_t r = getrandbits(m, k);
    while (r >= (uint32_t)n) r = getrandbits(m, k);
    return (int)r;
}

static void shuffle(MT *m, uint8_t *x, int len)
{
    for (int i = len - 1; i > 0; i--) {
        int j = randbelow(m, i + 1);
        uint8_t t = x[i]; x[i] = x[j]; x[j] = t;
    }
}

static void shuffle_tail(MT *m, uint8_t *x, int len, int k)
{
    int stop = len - 1 - k > 0 ? len - 1 - k : 0;
    for (int i = len - 1; i > stop; i--) {
        int j = randbelow(m, i + 1);
        uint8_t t = x[i]; x[i] = x[j]; x[j] = t;
    }
}

/* ------------------------------------------------------------------ cards, rules (cards.py, editions.py, rules.py) */

enum { WILD = 52, WD4 = 53, MATER = 54, AGENT_P = 55, N_CARDS = 56 };
enum { SKIP = 10, REVERSE = 11, DRAW_TWO = 12, WD4_RANK = 14 };
enum { PLAY, DRAWN, RESPOND, COLOR, SWAP, ROUND_OVER, GAME_OVER };  /* core/phases.py */
enum { A_DRAW = 136, A_PASS = 137, A_UNO = 138, A_CHALLENGE = 139, A_ACCEPT = 140,
       A_COLOR = 141, A_CATCH = 145, A_SWAP = 155, A_PENALIZE = 165, UNO_OFFSET = 68 };

/* cards.py CARD_COLOR and CARD_RANK, as tables */
#define COLORS13(c) c, c, c, c, c, c, c, c, c, c, c, c, c
static const uint8_t CARD_COLOR[N_CARDS] = {COLORS13(0), COLORS13(1), COLORS13(2), COLORS13(3), 4, 4, 4, 4};
#define RANKS13 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
static const uint8_t CARD_RANK[N_CARDS] = {RANKS13, RANKS13, RANKS13, RANKS13, 13, 14, 15, 16};
static int card_color(int c) { return CARD_COLOR[c]; }
static int card_rank(int c) { return CARD_RANK[c]; }
static int card_points(int c) { return c >= WILD ? 50 : (CARD_RANK[c] < 10 ? CARD_RANK[c] : 20); }
/* legality.py MATCHES[color * 17 + rank(top)][c] */
static int matches(int color, int top, int c)
{
    return c >= WILD || card_color(c) == color || card_rank(c) == card_rank(top);
}


/* editions.py: the deck, face by face (made once per edition) */
static int edition_deck(int edition, uint8_t *deck)
{
    static uint8_t decks[3][MAXC];
    static int sizes[3];
    if (sizes[edition] == 0) {
        int n = 0;
        for (int face = 0; face < N_CARDS; face++) {
            int copies;
            if (face < WILD) copies = face % 13 == 0 ? 1 : 2;
            else if (face == WILD || face == WD4) copies = 4;
            else copies = (edition == 1 && face == MATER) || (edition == 2 && face == AGENT_P) ? 4 : 0;
            for (int i = 0; i < copies; i++) decks[edition][n++] = (uint8_t)face;
        }
        sizes[edition] = n;
    }
    memcpy(deck, decks[edition], (size_t)sizes[edition]);
    return sizes[edition];
}

/* ------------------------------------------------------------------ the state (core/state.py) */

typedef struct {           /* state.py RoundStart */
    int dealer;
    int deck_len;          /* -1: no deck (stacked piles, or from an observation) */
    uint8_t deck[MAXC];
    PyObject *piles;       /* the stacked piles as the State holds them, or NULL */
    int nsides;
    double scores[MAXS];
    uint8_t score_float[MAXS];
    int elim[MAXS], nelim;
    int16_t *acts;         /* (seat, action) pairs */
    int nact, cap;
} Round;

typedef struct {
    PyObject_HEAD
    /* rules.py Rules and the options it reads */
    int edition, n, teams, stack, bluffing, penalize, seven_zero, jump_in, until, force_play;
    int peek_card, answer_card, respond_all, agent_p_discard, two_handed_rules, hand_size;
    int alternative, elimination;
    double target;
    /* state.py State */
    PyObject *seed;                    /* the match seed (an int) */
    char seed_text[160];
    int has_deal_rng; MT deal_rng; PyObject *deal_gauss;
    double scores[MAXS]; uint8_t score_float[MAXS];
    uint8_t eliminated[MAXS];
    long round_no;
    int dealer, winners[MAXS], nwinners, round_winner;
    Round *rounds; int nrounds, rounds_cap;
    uint8_t hands[MAXS][MAXC]; int hlen[MAXS];
    uint8_t draw[MAXC]; int ndraw;     /* bottom first */
    uint8_t disc[MAXC]; int ndisc;     /* bottom first */
    int color, turn, direction, phase, drawn, pending, pending_rank, attacker, bluff;
    uint8_t owed[MAXS];
    int window[MAXW], nwin;
    int8_t seen_len[MAXS][MAXS];       /* -1: not seen */
    uint8_t seen[MAXS][MAXS][MAXC];
    int idle_turns, blocked;
    int has_rng; MT rng; PyObject *rng_gauss;
    PyObject *rng_seed;                /* None or an int */
    uint32_t rng_seed_key[40]; int rng_seed_keylen;
    long long version;
    /* derived (deal.py set_seat_order) */
    int left[MAXS], right[MAXS], two_handed;
    int keep_log;
    int oom;                           /* an allocation failed: the step raises MemoryError */
} Core;

static int team_of(Core *g, int s) { return g->teams ? s % g->teams : s; }
static int next_seat(Core *g, int s) { return g->direction == 1 ? g->left[s] : g->right[s]; }

/* deal.py seat_order / set_seat_order */
static void seat_order(Core *g, int step, int *out)
{
    int n = g->n;
    for (int s = 0; s < n; s++) {
        int t = ((s + step) % n + n) % n;
        while (g->eliminated[t] && t != s) t = ((t + step) % n + n) % n;
        out[s] = t;
    }
}

static void set_seat_order(Core *g)
{
    int active = 0;
    seat_order(g, 1, g->left);
    seat_order(g, -1, g->right);
    for (int s = 0; s < g->n; s++) active += !g->eliminated[s];
    g->two_handed = active == 2 && g->two_handed_rules;
}

static void log_action(Core *g, int seat, int a)
{
    Round *r;
    if (!g->keep_log || g->nrounds == 0) return;
    r = &g->rounds[g->nrounds - 1];
    if (r->nact == r->cap) {
        int cap = r->cap ? r->cap * 2 : 64;
        int16_t *acts = PyMem_Realloc(r->acts, sizeof(int16_t) * 2 * (size_t)cap);
        if (acts == NULL) { g->oom = 1; return; }
        r->acts = acts;
        r->cap = cap;
    }
    r->acts[2 * r->nact] = (int16_t)seat;
    r->acts[2 * r->nact + 1] = (int16_t)a;
    r->nact++;
}

/* The round's generator (Game.rng): made when first needed, from the seed and the round. */
static MT *round_rng(Core *g)
{
    if (!g->has_rng) {
        if (g->rng_seed != NULL && g->rng_seed != Py_None) {
            mt_init_by_array(&g->rng, g->rng_seed_key, (size_t)g->rng_seed_keylen);
        } else {
            char text[256];
            snprintf(text, sizeof text, "unokit:%s:%ld:play", g->seed_text, g->round_no);
            mt_seed_text(&g->rng, text);
        }
        Py_XDECREF(g->rng_gauss);
        g->rng_gauss = Py_NewRef(Py_None);
        g->has_rng = 1;
    }
    return &g->rng;
}

/* ------------------------------------------------------------------ list helpers */

static void remove_card(uint8_t *xs, int *len, int c)   /* list.remove: the first one */
{
    for (int i = 0; i < *len; i++)
        if (xs[i] == c) {
            memmove(xs + i, xs + i + 1, (size_t)(*len - i - 1));
            (*len)--;
            return;
        }
}

static int holds(const uint8_t *xs, int len, int c)
{
    for (int i = 0; i < len; i++) if (xs[i] == c) return 1;
    return 0;
}

static void window_remove(Core *g, int s)
{
    for (int i = 0; i < g->nwin; i++)
        if (g->window[i] == s) {
            memmove(g->window + i, g->window + i + 1, sizeof(int) * (size_t)(g->nwin - i - 1));
            g->nwin--;
            return;
        }
}

/* ------------------------------------------------------------------ piles (core/piles.py) */

/* reshuffle: T6 */
static int reshuffle(Core *g)
{
    int top;
    if (g->ndisc <= 1) return 0;
    top = g->disc[--g->ndisc];
    shuffle(round_rng(g), g->disc, g->ndisc);
    memcpy(g->draw, g->disc, (size_t)g->ndisc);
    g->ndraw = g->ndisc;
    g->disc[0] = (uint8_t)top;
    g->ndisc = 1;
    return 1;
}

/* give: seat draws k cards; returns how many it got */
static int give(Core *g, int seat, int k)
{
    int got = 0;
    g->owed[seat] = 0;
    if (g->nwin) window_remove(g, seat);
    for (; got < k; got++) {
        if (g->ndraw == 0 && !reshuffle(g)) break;
        g->hands[seat][g->hlen[seat]++] = g->draw[--g->ndraw];
    }
    return got;
}

/* ------------------------------------------------------------------ uno calls (core/uno_calls.py) */

static void owe(Core *g, int seat)
{
    g->owed[seat] = 1;
    if (g->nwin < MAXW) g->window[g->nwin++] = seat;
}

static void call_uno(Core *g, int seat)
{
    g->owed[seat] = 0;
    window_remove(g, seat);
}

static void recheck(Core *g, const int *seats, int k, int called)
{
    for (int i = 0; i < k; i++) {
        int s = seats[i];
        window_remove(g, s);
        if (g->hlen[s] == 1 && s != called) owe(g, s);
        else g->owed[s] = 0;
    }
}

/* ------------------------------------------------------------------ scoring (core/scoring.py) */

static int hand_points(Core *g, int s)
{
    int p = 0;
    for (int i = 0; i < g->hlen[s]; i++) p += card_points(g->hands[s][i]);
    return p;
}

static void eliminate(Core *g, int winner, const int *points)
{
    int left[MAXS], nleft = 0;
    for (int s = 0; s < g->n; s++)
        if (!g->eliminated[s]) g->scores[s] += points[s];
    for (int s = 0; s < g->n; s++)
        if (!g->eliminated[s] && g->scores[s] >= g->target) g->eliminated[s] = 1;
    for (int s = 0; s < g->n; s++)
        if (!g->eliminated[s]) left[nleft++] = s;
    if (nleft == 0) {
        g->eliminated[winner] = 0;
        left[nleft++] = winner;
    }
    if (nleft <= 1) {
        g->nwinners = nleft;
        for (int i = 0; i < nleft; i++) g->winners[i] = left[i];
    }
}

/* end_round: E2 / E3 / M2 / M4, then the game-over test */
static void end_round(Core *g, int winner)
{
    int points[MAXS], sides = g->teams ? g->teams : g->n;
    g->nwin = 0;
    memset(g->owed, 0, sizeof g->owed);
    g->drawn = -1;
    g->round_winner = team_of(g, winner);
    for (int s = 0; s < g->n; s++) points[s] = hand_points(g, s);
    if (g->elimination) {
        eliminate(g, winner, points);
    } else if (!g->alternative) {
        int side = g->round_winner;
        for (int s = 0; s < g->n; s++)
            if (team_of(g, s) != side) g->scores[side] += points[s];
        if (g->scores[side] >= g->target) { g->nwinners = 1; g->winners[0] = side; }
    } else {
        double hi, low;
        for (int s = 0; s < g->n; s++) g->scores[team_of(g, s)] += points[s];
        hi = low = g->scores[0];
        for (int i = 1; i < sides; i++) {
            if (g->scores[i] > hi) hi = g->scores[i];
            if (g->scores[i] < low) low = g->scores[i];
        }
        if (hi >= g->target) {
            g->nwinners = 0;
            for (int i = 0; i < sides; i++)
                if (g->scores[i] == low) g->winners[g->nwinners++] = i;
        }
    }
    g->phase = g->nwinners ? GAME_OVER : ROUND_OVER;
}

/* block: the blocked round's winner holds the fewest points, then cards, first from seat */
static void block(Core *g, int seat)
{
    int pts[MAXS] = {0}, cards[MAXS] = {0}, best = seat, t = seat;
    g->blocked = 1;
    for (int s = 0; s < g->n; s++)
        if (!g->eliminated[s]) {
            pts[team_of(g, s)] += hand_points(g, s);
            cards[team_of(g, s)] += g->hlen[s];
        }
    for (;;) {
        int a = team_of(g, t), b = team_of(g, best);
        if (pts[a] < pts[b] || (pts[a] == pts[b] && cards[a] < cards[b])) best = t;
        t = next_seat(g, t);
        if (t == seat) break;
    }
    end_round(g, best);
}

/* ------------------------------------------------------------------ specials (core/specials.py) */

static void peek(Core *g, int seat)
{
    for (int t = 0; t < g->n; t++)
        if (t != seat && !g->eliminated[t]) {
            g->seen_len[seat][t] = (int8_t)g->hlen[t];
            memcpy(g->seen[seat][t], g->hands[t], (size_t)g->hlen[t]);
        }
}

/* ------------------------------------------------------------------ draw cards (core/draw_cards.py) */

static int t5_ok(Core *g, int c, int seat)
{
    if (c != WD4) return 1;
    for (int i = 0; i < g->hlen[seat]; i++)
        if (card_color(g->hands[seat][i]) == g->color) return 0;
    return 1;
}

static void attack(Core *g, int seat, int k, int rank, int bluff)
{
    int victim = next_seat(g, seat);
    if (g->respond_all || (rank == WD4_RANK && g->bluffing)) {
        g->phase = RESPOND;
        g->pending = k;
        g->pending_rank = rank;
        g->attacker = seat;
        g->bluff = bluff;
        g->turn = victim;
    } else {
        give(g, victim, k);
        g->turn = next_seat(g, victim);
    }
}

static void end_respond(Core *g)
{
    g->phase = PLAY;
    g->pending = 0;
    g->pending_rank = -1;
    g->attacker = -1;
    g->bluff = 0;
}

static void accept(Core *g, int seat)
{
    g->nwin = 0;
    give(g, seat, g->pending);
    end_respond(g);
    g->turn = next_seat(g, seat);
}

static void go_out(Core *g, int seat, int c, int stacked_total)
{
    if (c == WD4 || (c < WILD && card_rank(c) == DRAW_TWO)) {
        int single = c == WD4 ? 4 : 2;
        give(g, next_seat(g, seat), stacked_total ? stacked_total : single);
    } else if (c == g->peek_card) {
        peek(g, seat);
    }
    end_round(g, seat);
}

static void stack_on(Core *g, int seat, int c, int color, int uno)
{
    int bluff, total;
    g->nwin = 0;
    bluff = c == WD4 && !t5_ok(g, c, seat);
    remove_card(g->hands[seat], &g->hlen[seat], c);
    g->disc[g->ndisc++] = (uint8_t)c;
    g->color = c >= WILD ? color : card_color(c);
    total = g->pending + (c == WD4 ? 4 : 2);
    if (g->hlen[seat] == 0) {
        g->pending = total;
        go_out(g, seat, c, total);
        return;
    }
    if (g->hlen[seat] == 1 && !uno) owe(g, seat);
    g->pending = total;
    g->pending_rank = c == WD4 ? WD4_RANK : DRAW_TWO;
    g->attacker = seat;
    g->bluff = bluff;
    g->turn = next_seat(g, seat);
}

static void take_from_discard(Core *g, int attacker, int k)
{
    int taken = 0;
    while (taken < k && g->ndisc > 1) {
        int c = g->disc[g->ndisc - 2];
        g->disc[g->ndisc - 2] = g->disc[g->ndisc - 1];
        g->ndisc--;
        g->hands[attacker][g->hlen[attacker] + taken] = (uint8_t)c;
        taken++;
    }
    g->owed[attacker] = 0;
    window_remove(g, attacker);
    g->hlen[attacker] += taken;
    if (taken < k) give(g, attacker, k - taken);
}

static void agent_p(Core *g, int seat, int color, int uno)
{
    int attacker = g->attacker, k = g->pending;
    g->nwin = 0;
    remove_card(g->hands[seat], &g->hlen[seat], g->answer_card);
    g->disc[g->ndisc++] = (uint8_t)g->answer_card;
    g->color = color;
    end_respond(g);
    if (g->agent_p_discard) take_from_discard(g, attacker, k);
    else give(g, attacker, k);
    if (g->hlen[seat] == 0) { end_round(g, seat); return; }
    if (g->hlen[seat] == 1 && !uno) owe(g, seat);
    g->turn = next_seat(g, seat);
}

static void challenge(Core *g, int seat)
{
    int attacker = g->attacker, k = g->pending, bluff = g->bluff;
    g->nwin = 0;
    g->seen_len[seat][attacker] = (int8_t)g->hlen[attacker];
    memcpy(g->seen[seat][attacker], g->hands[attacker], (size_t)g->hlen[attacker]);
    end_respond(g);
    if (bluff) {
        give(g, attacker, k);
        g->turn = seat;
    } else {
        give(g, seat, k + 2);
        g->turn = next_seat(g, seat);
    }
}

/* ------------------------------------------------------------------ drawing (core/drawing.py) */

static int drawn_playable(Core *g, int d, int seat)
{
    if (!matches(g->color, g->disc[g->ndisc - 1], d)) return 0;
    return g->bluffing || t5_ok(g, d, seat);
}

static void draw_turn(Core *g, int seat)
{
    int d = -1;
    g->nwin = 0;
    g->idle_turns++;
    if (give(g, seat, 1)) d = g->hands[seat][g->hlen[seat] - 1];
    if (g->until)
        while (d >= 0 && !drawn_playable(g, d, seat)) {
            if (!give(g, seat, 1)) break;
            d = g->hands[seat][g->hlen[seat] - 1];
        }
    g->drawn = d;
    g->phase = DRAWN;
    if (g->idle_turns >= BLOCKED_AFTER) block(g, seat);
}

static int is_wrong_card(Core *g, int seat, int a)
{
    int c;
    if (g->phase != PLAY || seat != g->turn || a >= 2 * UNO_OFFSET || a >= UNO_OFFSET) return 0;
    c = a < WILD ? a : WILD + (a - WILD) / 4;
    return holds(g->hands[seat], g->hlen[seat], c) && !matches(g->color, g->disc[g->ndisc - 1], c);
}

static void wrong_card(Core *g, int seat, int a)
{
    g->version++;
    log_action(g, seat, a);
    g->nwin = 0;
    give(g, seat, 2);
    g->turn = next_seat(g, seat);
    g->phase = PLAY;
    g->idle_turns++;
    if (g->idle_turns >= BLOCKED_AFTER) block(g, seat);
}

static void pass_turn(Core *g, int seat)
{
    g->nwin = 0;
    g->drawn = -1;
    g->turn = next_seat(g, seat);
    g->phase = PLAY;
}

/* ------------------------------------------------------------------ house rules (core/house_rules.py) */

static void swap_hands(Core *g, int seat, int target)
{
    uint8_t tmp[MAXC];
    int len = g->hlen[seat], seats[2] = {seat, target};
    int called = len == 1 && !g->owed[seat];
    memcpy(tmp, g->hands[seat], (size_t)len);
    memcpy(g->hands[seat], g->hands[target], (size_t)g->hlen[target]);
    g->hlen[seat] = g->hlen[target];
    memcpy(g->hands[target], tmp, (size_t)len);
    g->hlen[target] = len;
    recheck(g, seats, 2, called ? seat : -1);
    g->turn = next_seat(g, seat);
    g->phase = PLAY;
}

static void rotate_hands(Core *g, int seat, int called)
{
    static uint8_t old[MAXS][MAXC];
    int oldlen[MAXS], movers[MAXS], k = 0;
    memcpy(old, g->hands, sizeof old);
    memcpy(oldlen, g->hlen, sizeof oldlen);
    for (int s = 0; s < g->n; s++) g->hlen[s] = 0;
    for (int s = 0; s < g->n; s++)
        if (!g->eliminated[s]) {
            int t = next_seat(g, s);
            movers[k++] = s;
            memcpy(g->hands[t], old[s], (size_t)oldlen[s]);
            g->hlen[t] = oldlen[s];
        }
    recheck(g, movers, k, called && oldlen[seat] == 1 ? seat : -1);
}

/* ------------------------------------------------------------------ the turn machine (core/game.py) */

static void reverse(Core *g, int seat)
{
    if (g->two_handed) {
        g->turn = seat;
    } else {
        g->direction = -g->direction;
        g->turn = next_seat(g, seat);
    }
}

/* Game._play: a card at a normal turn, the drawn card, or a jump-in */
static void play_card(Core *g, int seat, int c, int color, int uno)
{
    int prev_color = g->color, left, rank, nxt;
    g->nwin = 0;
    remove_card(g->hands[seat], &g->hlen[seat], c);
    g->disc[g->ndisc++] = (uint8_t)c;
    g->drawn = -1;
    g->turn = seat;
    g->phase = PLAY;
    g->color = c >= WILD ? color : card_color(c);
    left = g->hlen[seat];
    if (left == 0) { go_out(g, seat, c, 0); return; }
    if (left == 1 && !uno) owe(g, seat);
    rank = card_rank(c);
    nxt = next_seat(g, seat);
    if (rank < 10) {
        if (rank == 7 && g->seven_zero) { g->phase = SWAP; return; }
        if (rank == 0 && g->seven_zero) rotate_hands(g, seat, uno);
        g->turn = nxt;
    } else if (rank == SKIP) {
        g->turn = next_seat(g, nxt);
    } else if (rank == REVERSE) {
        reverse(g, seat);
    } else if (rank == DRAW_TWO) {
        attack(g, seat, 2, DRAW_TWO, 0);
    } else if (c == WD4) {
        int bluff = 0;
        for (int i = 0; i < g->hlen[seat]; i++)
            if (card_color(g->hands[seat][i]) == prev_color) { bluff = 1; break; }
        attack(g, seat, 4, WD4_RANK, bluff);
    } else {
        if (c == g->peek_card) peek(g, seat);
        g->turn = nxt;
    }
}

/* Game._do: apply the legal action a of seat */
static void do_action(Core *g, int seat, int a)
{
    g->version++;
    log_action(g, seat, a);
    if (a < 2 * UNO_OFFSET) {
        int p = a % UNO_OFFSET, uno = a >= UNO_OFFSET;
        int c = p < WILD ? p : WILD + (p - WILD) / 4;
        int color = p < WILD ? card_color(p) : (p - WILD) % 4;
        if (g->phase == RESPOND && seat == g->turn) {
            g->idle_turns = 0;
            if (c == g->answer_card) agent_p(g, seat, color, uno);
            else stack_on(g, seat, c, color, uno);
        } else {
            if (g->phase != DRAWN || seat != g->turn) g->idle_turns = 0;
            play_card(g, seat, c, color, uno);
        }
    } else if (a == A_DRAW) {
        draw_turn(g, seat);
    } else if (a == A_PASS) {
        pass_turn(g, seat);
    } else if (a == A_UNO) {
        call_uno(g, seat);
    } else if (a >= A_CATCH && a < A_SWAP) {
        give(g, a - A_CATCH, 2);                  /* uno_calls.catch */
    } else if (a == A_ACCEPT) {
        accept(g, seat);
    } else if (a == A_CHALLENGE) {
        challenge(g, seat);
    } else if (a >= A_COLOR && a < A_CATCH) {
        g->color = a - A_COLOR;                   /* deal.name_color */
        g->phase = PLAY;
    } else {
        swap_hands(g, seat, a - A_SWAP);
    }
}

/* ------------------------------------------------------------------ legality (core/legality.py) */

/* add_play: the plays of c (each colour of a wild), with the UNO call when uno */
static int add_play(Core *g, int *out, int k, int c, int seat, int uno)
{
    if (c < WILD) {
        out[k++] = c;
        if (uno) out[k++] = c + UNO_OFFSET;
        return k;
    }
    if (c == WD4 && !g->bluffing && !t5_ok(g, c, seat)) return k;
    for (int i = 0; i < 4; i++) out[k++] = WILD + 4 * (c - WILD) + i;
    if (uno)
        for (int i = 0; i < 4; i++) out[k++] = WILD + 4 * (c - WILD) + i + UNO_OFFSET;
    return k;
}

static int respond_actions(Core *g, int *out, int k, int seat)
{
    const uint8_t *hand = g->hands[seat];
    int len = g->hlen[seat], uno = len == 2;
    out[k++] = A_ACCEPT;
    if (g->pending_rank == WD4_RANK && g->bluffing) out[k++] = A_CHALLENGE;
    if (g->answer_card >= 0 && holds(hand, len, g->answer_card))
        k = add_play(g, out, k, g->answer_card, seat, uno);
    if (g->stack) {
        if (g->pending_rank == DRAW_TWO) {
            uint64_t done = 0;
            for (int i = 0; i < len; i++) {
                int c = hand[i];
                if (c < WILD && card_rank(c) == DRAW_TWO && !(done >> c & 1)) {
                    done |= (uint64_t)1 << c;
                    k = add_play(g, out, k, c, seat, uno);
                }
            }
        }
        if (holds(hand, len, WD4) && (g->pending_rank == WD4_RANK || g->stack == 2))
            k = add_play(g, out, k, WD4, seat, uno);
    }
    return k;
}

static int turn_actions(Core *g, int *out, int k, int seat)
{
    const uint8_t *hand = g->hands[seat];
    int len = g->hlen[seat], top = g->disc[g->ndisc - 1];
    if (g->phase == PLAY) {
        uint64_t done = 0;
        int start = k, color = g->color, top_rank = CARD_RANK[top];
        for (int i = 0; i < len; i++) {
            int c = hand[i];
            if ((c >= WILD || CARD_COLOR[c] == color || CARD_RANK[c] == top_rank) && !(done >> c & 1)) {
                done |= (uint64_t)1 << c;
                if (c < WILD) {
                    out[k++] = c;
                    if (len == 2) out[k++] = c + UNO_OFFSET;
                } else {
                    for (int j = 0; j < 4; j++) out[k++] = WILD + 4 * (c - WILD) + j;
                    if (len == 2)
                        for (int j = 0; j < 4; j++) out[k++] = WILD + 4 * (c - WILD) + j + UNO_OFFSET;
                }
            }
        }
        if ((done >> WD4 & 1) && !(g->bluffing || t5_ok(g, WD4, seat))) {
            int m = start;
            for (int i = start; i < k; i++) {
                int p = out[i] % UNO_OFFSET;
                if (!(p >= WILD && WILD + (p - WILD) / 4 == WD4)) out[m++] = out[i];
            }
            k = m;
        }
        out[k++] = A_DRAW;
    } else if (g->phase == DRAWN) {
        int d = g->drawn;
        if (d >= 0 && matches(g->color, top, d) && (g->bluffing || t5_ok(g, d, seat))) {
            k = add_play(g, out, k, d, seat, len == 2);
            if (!(g->force_play && t5_ok(g, d, seat))) out[k++] = A_PASS;
        } else {
            out[k++] = A_PASS;
        }
    } else if (g->phase == RESPOND) {
        k = respond_actions(g, out, k, seat);
    } else if (g->phase == COLOR) {
        for (int i = 0; i < 4; i++) out[k++] = A_COLOR + i;
    } else {
        for (int t = 0; t < g->n; t++)
            if (t != seat && !g->eliminated[t]) out[k++] = A_SWAP + t;
    }
    return k;
}

/* legal: every action seat may take now, in the engine's order; out holds N_ACTIONS + MAXW */
static int legal(Core *g, int seat, int *out)
{
    int k = 0;
    if (g->phase >= ROUND_OVER || seat < 0 || seat >= g->n || g->eliminated[seat]) return 0;
    if (seat == g->turn) {
        k = turn_actions(g, out, k, seat);
    } else if (g->phase <= DRAWN && g->jump_in) {
        int top = g->disc[g->ndisc - 1];
        if (top < WILD && holds(g->hands[seat], g->hlen[seat], top))
            k = add_play(g, out, k, top, seat, g->hlen[seat] == 2);
    }
    if (g->owed[seat]) out[k++] = A_UNO;
    for (int i = 0; i < g->nwin; i++)
        if (g->window[i] != seat) out[k++] = A_CATCH + g->window[i];
    return k;
}

/* ------------------------------------------------------------------ deal (core/deal.py) */

static void clear_round(Core *g)
{
    for (int s = 0; s < g->n; s++) {
        g->hlen[s] = 0;
        g->owed[s] = 0;
        for (int t = 0; t < g->n; t++) g->seen_len[s][t] = -1;
    }
    g->ndraw = 0;
    g->ndisc = 0;
    g->color = 0;
    g->turn = 0;
    g->direction = 1;
    g->phase = PLAY;
    g->drawn = -1;
    g->pending = 0;
    g->pending_rank = -1;
    g->attacker = -1;
    g->bluff = 0;
    g->nwin = 0;
    g->round_winner = -1;
    g->idle_turns = 0;
    g->blocked = 0;
    set_seat_order(g);
}

static void free_rounds(Core *g)
{
    for (int i = 0; i < g->nrounds; i++) {
        PyMem_Free(g->rounds[i].acts);
        Py_XDECREF(g->rounds[i].piles);
    }
    g->nrounds = 0;
}

static Round *push_round(Core *g)
{
    Round *r;
    if (g->nrounds == g->rounds_cap) {
        int cap = g->rounds_cap ? g->rounds_cap * 2 : 8;
        Round *rs = PyMem_Realloc(g->rounds, sizeof(Round) * (size_t)cap);
        if (rs == NULL) { g->oom = 1; return NULL; }
        g->rounds = rs;
        g->rounds_cap = cap;
    }
    r = &g->rounds[g->nrounds++];
    memset(r, 0, sizeof *r);
    r->deck_len = -1;
    return r;
}

/* choose_dealer: S1, each active player draws; the highest number deals; ties draw again */
static int choose_dealer(Core *g)
{
    int contenders[MAXS], k = 0;
    MT own, *rng = &g->deal_rng;
    uint8_t deck[MAXC];
    for (int s = 0; s < g->n; s++) if (!g->eliminated[s]) contenders[k++] = s;
    if (!g->has_deal_rng) {
        char text[256];
        snprintf(text, sizeof text, "unokit:%s:dealer", g->seed_text);
        mt_seed_text(&own, text);
        rng = &own;
    }
    while (k > 1) {
        int values[MAXS], best = 0, m = 0, len = edition_deck(g->edition, deck);
        if (!g->has_deal_rng) shuffle(rng, deck, len);
        else shuffle_tail(rng, deck, len, k);
        for (int i = 0; i < k; i++) {
            int c = g->has_deal_rng ? deck[len - k + i] : deck[i];
            values[i] = c < WILD && card_rank(c) < 10 ? card_rank(c) : 0;
            if (values[i] > best) best = values[i];
        }
        for (int i = 0; i < k; i++) if (values[i] == best) contenders[m++] = contenders[i];
        k = m;
    }
    return contenders[0];
}

/* turn_up_first_card: S3 */
static void turn_up_first_card(Core *g)
{
    int first = g->left[g->dealer], top = g->disc[g->ndisc - 1], rank;
    for (;;) {
        int other = 0;
        if (top != WD4) break;
        for (int i = 0; i < g->ndraw; i++) if (g->draw[i] != WD4) { other = 1; break; }
        if (!other) break;
        int pos;
        g->ndisc--;
        pos = randbelow(round_rng(g), g->ndraw);
        memmove(g->draw + pos + 1, g->draw + pos, (size_t)(g->ndraw - pos));
        g->draw[pos] = (uint8_t)top;
        g->ndraw++;
        top = g->draw[--g->ndraw];
        g->disc[g->ndisc++] = (uint8_t)top;
    }
    g->phase = PLAY;
    g->turn = first;
    if (top >= WILD) { g->phase = COLOR; return; }
    g->color = card_color(top);
    rank = card_rank(top);
    if (rank == SKIP || (rank == REVERSE && g->two_handed)) {
        g->turn = g->left[first];
    } else if (rank == REVERSE) {
        g->direction = -1;
        g->turn = g->dealer;
    } else if (rank == DRAW_TWO) {
        give(g, first, 2);
        g->turn = g->left[first];
    }
}

/* The next deal (next_deal, round_piles, deal, begin_round, turn_up_first_card): a shuffled
 * deck from the seed or the deal stream. round_no and dealer are checked by the caller. */
static int deal_round(Core *g, long round_no, int dealer)
{
    uint8_t deck[MAXC];
    int len = edition_deck(g->edition, deck), order[MAXS], no = 0, i = 0, s, first;
    Round *r;
    if (g->has_deal_rng) {
        shuffle(&g->deal_rng, deck, len);
    } else {
        MT own;
        char text[256];
        snprintf(text, sizeof text, "unokit:%s:%ld:deal", g->seed_text, round_no);
        mt_seed_text(&own, text);
        shuffle(&own, deck, len);
    }
    g->round_no = round_no;
    clear_round(g);
    g->version++;
    g->dealer = dealer;
    if (!g->keep_log) free_rounds(g);
    r = push_round(g);
    if (r == NULL) return -1;
    r->dealer = dealer;
    r->deck_len = len;
    memcpy(r->deck, deck, (size_t)len);
    r->nsides = g->teams ? g->teams : g->n;
    memcpy(r->scores, g->scores, sizeof r->scores);
    memcpy(r->score_float, g->score_float, sizeof r->score_float);
    for (s = 0; s < g->n; s++) if (g->eliminated[s]) r->elim[r->nelim++] = s;
    first = g->left[dealer];
    order[no++] = first;
    for (s = g->left[first]; s != first; s = g->left[s]) order[no++] = s;
    for (int h = 0; h < g->hand_size; h++)
        for (int j = 0; j < no; j++) g->hands[order[j]][g->hlen[order[j]]++] = deck[i++];
    g->disc[0] = deck[i++];
    g->ndisc = 1;
    g->ndraw = len - i;
    for (int j = 0; j < g->ndraw; j++) g->draw[j] = deck[len - 1 - j];   /* bottom first */
    g->has_rng = 0;
    Py_XDECREF(g->rng_seed);
    g->rng_seed = Py_NewRef(Py_None);
    turn_up_first_card(g);
    return 0;
}

/* Game.start_round() after a round: the deal passes left (S1) */
static int next_round(Core *g)
{
    int left[MAXS];
    if (g->phase == GAME_OVER) {
        PyErr_SetString(PyExc_RuntimeError, "the game is over");
        return -1;
    }
    if (g->phase != ROUND_OVER) {
        PyErr_SetString(PyExc_RuntimeError, "the round is not over");
        return -1;
    }
    seat_order(g, 1, left);
    if (deal_round(g, g->round_no + 1, left[g->dealer]) < 0) { PyErr_NoMemory(); return -1; }
    return 0;
}

/* ------------------------------------------------------------------ the Python type: fields in and out (core/state.py) */

static PyObject *parse_hook = NULL;   /* core.actions.parse_action */
static PyObject *refuse_hook = NULL;  /* raises the engine's error for a refused action */

static void mt_seed_key_of(PyObject *n, uint32_t *key, int *klen, int cap, int *ok)
{
    /* random.Random(n) for an int n: the 32-bit words of abs(n), least significant first */
    PyObject *absn = PyNumber_Absolute(n), *bits = NULL, *bytes = NULL;
    long nbits;
    *ok = 0;
    if (absn == NULL) return;
    bits = PyObject_CallMethod(absn, "bit_length", NULL);
    if (bits == NULL) goto done;
    nbits = PyLong_AsLong(bits);
    if (nbits < 0 || nbits > 32L * cap) { PyErr_SetString(PyExc_ValueError, "seed too large"); goto done; }
    {
        long words = nbits == 0 ? 1 : (nbits - 1) / 32 + 1;
        bytes = PyObject_CallMethod(absn, "to_bytes", "ls", words * 4, "little");
        if (bytes == NULL) goto done;
        const unsigned char *b = (const unsigned char *)PyBytes_AS_STRING(bytes);
        for (long i = 0; i < words; i++)
            key[i] = (uint32_t)b[4 * i] | (uint32_t)b[4 * i + 1] << 8 | (uint32_t)b[4 * i + 2] << 16
                     | (uint32_t)b[4 * i + 3] << 24;
        *klen = (int)words;
        *ok = 1;
    }
done:
    Py_XDECREF(absn);
    Py_XDECREF(bits);
    Py_XDECREF(bytes);
}

static PyObject *mt_getstate(const MT *m, PyObject *gauss)
{
    PyObject *words = PyTuple_New(625);
    if (words == NULL) return NULL;
    for (int i = 0; i < 624; i++) PyTuple_SET_ITEM(words, i, PyLong_FromUnsignedLong(m->mt[i]));
    PyTuple_SET_ITEM(words, 624, PyLong_FromLong(m->index));
    return Py_BuildValue("(iNO)", 3, words, gauss ? gauss : Py_None);
}

static int mt_setstate(MT *m, PyObject **gauss, PyObject *state)
{
    PyObject *words;
    if (!PyTuple_Check(state) || PyTuple_GET_SIZE(state) != 3) goto bad;
    if (PyLong_AsLong(PyTuple_GET_ITEM(state, 0)) != 3) goto bad;
    words = PyTuple_GET_ITEM(state, 1);
    if (!PyTuple_Check(words) || PyTuple_GET_SIZE(words) != 625) goto bad;
    for (int i = 0; i < 624; i++) {
        unsigned long w = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(words, i));
        if (PyErr_Occurred()) return -1;
        m->mt[i] = (uint32_t)w;
    }
    m->index = (int)PyLong_AsLong(PyTuple_GET_ITEM(words, 624));
    if (PyErr_Occurred()) return -1;
    if (m->index < 0 || m->index > 624) goto bad;
    Py_XDECREF(*gauss);
    *gauss = Py_NewRef(PyTuple_GET_ITEM(state, 2));
    return 0;
bad:
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "not a version 3 generator state");
    return -1;
}

static PyObject *cards_tuple(const uint8_t *xs, int len)
{
    PyObject *t = PyTuple_New(len);
    if (t == NULL) return NULL;
    for (int i = 0; i < len; i++) PyTuple_SET_ITEM(t, i, PyLong_FromLong(xs[i]));
    return t;
}

static PyObject *scores_tuple(const double *scores, const uint8_t *flt, int k)
{
    PyObject *t = PyTuple_New(k);
    if (t == NULL) return NULL;
    for (int i = 0; i < k; i++)
        PyTuple_SET_ITEM(t, i, flt[i] ? PyFloat_FromDouble(scores[i])
                                      : PyLong_FromLongLong((long long)scores[i]));
    return t;
}

static PyObject *bools_tuple(const uint8_t *xs, int len)
{
    PyObject *t = PyTuple_New(len);
    if (t == NULL) return NULL;
    for (int i = 0; i < len; i++) PyTuple_SET_ITEM(t, i, PyBool_FromLong(xs[i]));
    return t;
}

static PyObject *ints_tuple(const int *xs, int len)
{
    PyObject *t = PyTuple_New(len);
    if (t == NULL) return NULL;
    for (int i = 0; i < len; i++) PyTuple_SET_ITEM(t, i, PyLong_FromLong(xs[i]));
    return t;
}

static PyObject *round_tuple(const Round *r)
{
    PyObject *acts = PyTuple_New(r->nact), *deck;
    if (acts == NULL) return NULL;
    for (int i = 0; i < r->nact; i++)
        PyTuple_SET_ITEM(acts, i, Py_BuildValue("(ii)", r->acts[2 * i], r->acts[2 * i + 1]));
    deck = r->deck_len < 0 ? Py_NewRef(Py_None) : cards_tuple(r->deck, r->deck_len);
    return Py_BuildValue("(iNONNN)", r->dealer, deck, r->piles ? r->piles : Py_None,
                         scores_tuple(r->scores, r->score_float, r->nsides),
                         ints_tuple(r->elim, r->nelim), acts);
}

static PyObject *seen_tuple(Core *g)
{
    PyObject *out = PyTuple_New(g->n);
    if (out == NULL) return NULL;
    for (int s = 0; s < g->n; s++) {
        int k = 0, j = 0;
        PyObject *pairs;
        for (int t = 0; t < g->n; t++) k += g->seen_len[s][t] >= 0;
        pairs = PyTuple_New(k);
        if (pairs == NULL) { Py_DECREF(out); return NULL; }
        for (int t = 0; t < g->n; t++)
            if (g->seen_len[s][t] >= 0)
                PyTuple_SET_ITEM(pairs, j++, Py_BuildValue("(iN)", t, cards_tuple(g->seen[s][t], g->seen_len[s][t])));
        PyTuple_SET_ITEM(out, s, pairs);
    }
    return out;
}

static int put(PyObject *d, const char *key, PyObject *value)
{
    int rc;
    if (value == NULL) return -1;
    rc = PyDict_SetItemString(d, key, value);
    Py_DECREF(value);
    return rc;
}

/* Every field of core/state.py's State but edition, options and n, as a State holds it */
static PyObject *Core_fields(Core *g, PyObject *Py_UNUSED(ignored))
{
    PyObject *d = PyDict_New(), *rounds, *hands;
    int sides = g->teams ? g->teams : g->n;
    if (d == NULL) return NULL;
    rounds = PyTuple_New(g->nrounds);
    hands = PyTuple_New(g->n);
    if (rounds == NULL || hands == NULL) goto fail;
    for (int i = 0; i < g->nrounds; i++) PyTuple_SET_ITEM(rounds, i, round_tuple(&g->rounds[i]));
    for (int s = 0; s < g->n; s++) PyTuple_SET_ITEM(hands, s, cards_tuple(g->hands[s], g->hlen[s]));
    if (put(d, "rounds", rounds) || put(d, "hands", hands)) { rounds = hands = NULL; goto fail; }
    if (put(d, "seed", Py_NewRef(g->seed ? g->seed : Py_None))
        || put(d, "deal_rng", g->has_deal_rng ? mt_getstate(&g->deal_rng, g->deal_gauss) : Py_NewRef(Py_None))
        || put(d, "scores", scores_tuple(g->scores, g->score_float, sides))
        || put(d, "eliminated", bools_tuple(g->eliminated, g->n))
        || put(d, "round_no", PyLong_FromLong(g->round_no))
        || put(d, "dealer", PyLong_FromLong(g->dealer))
        || put(d, "winners", ints_tuple(g->winners, g->nwinners))
        || put(d, "round_winner", PyLong_FromLong(g->round_winner))
        || put(d, "draw_pile", cards_tuple(g->draw, g->ndraw))
        || put(d, "discard", cards_tuple(g->disc, g->ndisc))
        || put(d, "color", PyLong_FromLong(g->color))
        || put(d, "turn", PyLong_FromLong(g->turn))
        || put(d, "direction", PyLong_FromLong(g->direction))
        || put(d, "phase", PyLong_FromLong(g->phase))
        || put(d, "drawn", PyLong_FromLong(g->drawn))
        || put(d, "pending", PyLong_FromLong(g->pending))
        || put(d, "pending_rank", PyLong_FromLong(g->pending_rank))
        || put(d, "attacker", PyLong_FromLong(g->attacker))
        || put(d, "bluff", PyBool_FromLong(g->bluff))
        || put(d, "owed", bools_tuple(g->owed, g->n))
        || put(d, "window", ints_tuple(g->window, g->nwin))
        || put(d, "seen", seen_tuple(g))
        || put(d, "idle_turns", PyLong_FromLong(g->idle_turns))
        || put(d, "blocked", PyBool_FromLong(g->blocked))
        || put(d, "rng", g->has_rng ? mt_getstate(&g->rng, g->rng_gauss) : Py_NewRef(Py_None))
        || put(d, "rng_seed", Py_NewRef(g->rng_seed ? g->rng_seed : Py_None))
        || put(d, "version", PyLong_FromLongLong(g->version)))
        goto fail;
    return d;
fail:
    Py_XDECREF(rounds);
    Py_XDECREF(hands);
    Py_DECREF(d);
    return NULL;
}

static long get_long(PyObject *d, const char *key, int *err)
{
    PyObject *v = PyDict_GetItemString(d, key);
    long x;
    if (v == NULL) { PyErr_Format(PyExc_KeyError, "%s", key); *err = 1; return 0; }
    x = PyLong_AsLong(v);
    if (x == -1 && PyErr_Occurred()) *err = 1;
    return x;
}

/* A sequence of at most cap small ints into xs; its length, or -1 */
static int get_ints(PyObject *seq, int *xs, int cap, int lo, int hi)
{
    PyObject *fast = PySequence_Fast(seq, "a sequence");
    Py_ssize_t len;
    if (fast == NULL) return -1;
    len = PySequence_Fast_GET_SIZE(fast);
    if (len > cap) { Py_DECREF(fast); PyErr_SetString(PyExc_ValueError, "too many entries"); return -1; }
    for (Py_ssize_t i = 0; i < len; i++) {
        long x = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if ((x == -1 && PyErr_Occurred()) || x < lo || x > hi) {
            Py_DECREF(fast);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a value out of range");
            return -1;
        }
        xs[i] = (int)x;
    }
    Py_DECREF(fast);
    return (int)len;
}

static int get_cards(PyObject *seq, uint8_t *xs, int cap)
{
    int tmp[MAXC], len = get_ints(seq, tmp, cap, 0, N_CARDS - 1);
    for (int i = 0; i < len; i++) xs[i] = (uint8_t)tmp[i];
    return len;
}

static int get_scores(PyObject *seq, double *scores, uint8_t *flt, int want)
{
    PyObject *fast = PySequence_Fast(seq, "scores");
    if (fast == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != want) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "scores of the wrong size");
        return -1;
    }
    for (int i = 0; i < want; i++) {
        PyObject *v = PySequence_Fast_GET_ITEM(fast, i);
        flt[i] = (uint8_t)PyFloat_Check(v);
        scores[i] = PyFloat_AsDouble(v);
        if (PyErr_Occurred()) { Py_DECREF(fast); return -1; }
    }
    Py_DECREF(fast);
    return 0;
}

static int load_round(Core *g, PyObject *t)
{
    Round *r;
    PyObject *deck, *piles, *acts;
    int elim_len;
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 6) { PyErr_SetString(PyExc_ValueError, "a round"); return -1; }
    r = push_round(g);
    if (r == NULL) { PyErr_NoMemory(); return -1; }
    r->dealer = (int)PyLong_AsLong(PyTuple_GET_ITEM(t, 0));
    if (PyErr_Occurred()) return -1;
    deck = PyTuple_GET_ITEM(t, 1);
    piles = PyTuple_GET_ITEM(t, 2);
    if (deck != Py_None && (r->deck_len = get_cards(deck, r->deck, MAXC)) < 0) return -1;
    if (piles != Py_None) r->piles = Py_NewRef(piles);
    r->nsides = (int)PySequence_Size(PyTuple_GET_ITEM(t, 3));
    if (r->nsides < 0 || r->nsides > MAXS) { PyErr_SetString(PyExc_ValueError, "round scores"); return -1; }
    if (get_scores(PyTuple_GET_ITEM(t, 3), r->scores, r->score_float, r->nsides) < 0) return -1;
    elim_len = get_ints(PyTuple_GET_ITEM(t, 4), r->elim, MAXS, 0, MAXS - 1);
    if (elim_len < 0) return -1;
    r->nelim = elim_len;
    acts = PySequence_Fast(PyTuple_GET_ITEM(t, 5), "actions");
    if (acts == NULL) return -1;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(acts); i++) {
        int pair[2];
        if (get_ints(PySequence_Fast_GET_ITEM(acts, i), pair, 2, -1, N_ACTIONS) != 2) {
            Py_DECREF(acts);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "an action");
            return -1;
        }
        g->keep_log = 1;
        log_action(g, pair[0], pair[1]);
    }
    Py_DECREF(acts);
    return g->oom ? (PyErr_NoMemory(), -1) : 0;
}

static int load_rng(PyObject *d, const char *key, int *has, MT *m, PyObject **gauss)
{
    PyObject *v = PyDict_GetItemString(d, key);
    if (v == NULL) { PyErr_Format(PyExc_KeyError, "%s", key); return -1; }
    *has = v != Py_None;
    return *has ? mt_setstate(m, gauss, v) : 0;
}

static int set_seed(Core *g, PyObject *seed)
{
    PyObject *text;
    const char *s;
    if (!PyLong_Check(seed)) { PyErr_SetString(PyExc_TypeError, "the seed must be an int"); return -1; }
    text = PyObject_Str(seed);
    if (text == NULL) return -1;
    s = PyUnicode_AsUTF8(text);
    if (s == NULL || strlen(s) >= sizeof g->seed_text) {
        Py_DECREF(text);
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "the seed has more than 150 digits");
        return -1;
    }
    strcpy(g->seed_text, s);
    Py_DECREF(text);
    Py_XDECREF(g->seed);
    g->seed = Py_NewRef(seed);
    return 0;
}

static int load_piles(Core *g, PyObject *d)
{
    PyObject *hands = PyDict_GetItemString(d, "hands"), *seen = PyDict_GetItemString(d, "seen");
    if (hands == NULL || seen == NULL || PySequence_Size(hands) != g->n || PySequence_Size(seen) != g->n) {
        PyErr_SetString(PyExc_ValueError, "hands and seen need one entry a seat");
        return -1;
    }
    for (int s = 0; s < g->n; s++) {
        PyObject *h = PySequence_GetItem(hands, s), *pairs = PySequence_GetItem(seen, s), *fast;
        int len = h ? get_cards(h, g->hands[s], MAXC) : -1;
        Py_XDECREF(h);
        if (len < 0 || pairs == NULL) { Py_XDECREF(pairs); return -1; }
        g->hlen[s] = len;
        for (int t = 0; t < g->n; t++) g->seen_len[s][t] = -1;
        fast = PySequence_Fast(pairs, "seen");
        Py_DECREF(pairs);
        if (fast == NULL) return -1;
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(fast); i++) {
            PyObject *pair = PySequence_Fast_GET_ITEM(fast, i);
            long t = PyTuple_Check(pair) && PyTuple_GET_SIZE(pair) == 2 ? PyLong_AsLong(PyTuple_GET_ITEM(pair, 0)) : -1;
            int k;
            if (t < 0 || t >= g->n) {
                Py_DECREF(fast);
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "seen");
                return -1;
            }
            k = get_cards(PyTuple_GET_ITEM(pair, 1), g->seen[s][t], MAXC);
            if (k < 0) { Py_DECREF(fast); return -1; }
            g->seen_len[s][t] = (int8_t)k;
        }
        Py_DECREF(fast);
    }
    return 0;
}

static int load_lists(Core *g, PyObject *d)
{
    int tmp[MAXS], len, sides = g->teams ? g->teams : g->n;
    PyObject *v;
    if ((v = PyDict_GetItemString(d, "scores")) == NULL || get_scores(v, g->scores, g->score_float, sides) < 0)
        return -1;
    if ((v = PyDict_GetItemString(d, "eliminated")) == NULL || get_ints(v, tmp, MAXS, 0, 1) != g->n) return -1;
    for (int s = 0; s < g->n; s++) g->eliminated[s] = (uint8_t)tmp[s];
    if ((v = PyDict_GetItemString(d, "owed")) == NULL || get_ints(v, tmp, MAXS, 0, 1) != g->n) return -1;
    for (int s = 0; s < g->n; s++) g->owed[s] = (uint8_t)tmp[s];
    if ((v = PyDict_GetItemString(d, "winners")) == NULL || (len = get_ints(v, g->winners, MAXS, 0, MAXS - 1)) < 0)
        return -1;
    g->nwinners = len;
    if ((v = PyDict_GetItemString(d, "window")) == NULL || (len = get_ints(v, g->window, MAXW, 0, g->n - 1)) < 0)
        return -1;
    g->nwin = len;
    if ((v = PyDict_GetItemString(d, "draw_pile")) == NULL || (g->ndraw = get_cards(v, g->draw, MAXC)) < 0)
        return -1;
    if ((v = PyDict_GetItemString(d, "discard")) == NULL || (g->ndisc = get_cards(v, g->disc, MAXC)) < 1)
        return -1;
    return 0;
}

/* Set every field from a State's values ({field: value}), as Game._load does; the wrapper has
 * checked them with the engine (core/position.py), this only refuses what it cannot hold. */
static PyObject *Core_load(Core *g, PyObject *d)
{
    int err = 0;
    PyObject *v, *rounds;
    if (!PyDict_Check(d)) { PyErr_SetString(PyExc_TypeError, "fields must be a dict"); return NULL; }
    if ((v = PyDict_GetItemString(d, "seed")) == NULL || set_seed(g, v) < 0) goto fail;
    if (load_rng(d, "deal_rng", &g->has_deal_rng, &g->deal_rng, &g->deal_gauss) < 0
        || load_rng(d, "rng", &g->has_rng, &g->rng, &g->rng_gauss) < 0 || load_lists(g, d) < 0
        || load_piles(g, d) < 0)
        goto fail;
    g->round_no = get_long(d, "round_no", &err);
    g->dealer = (int)get_long(d, "dealer", &err);
    g->round_winner = (int)get_long(d, "round_winner", &err);
    g->color = (int)get_long(d, "color", &err);
    g->turn = (int)get_long(d, "turn", &err);
    g->direction = (int)get_long(d, "direction", &err);
    g->phase = (int)get_long(d, "phase", &err);
    g->drawn = (int)get_long(d, "drawn", &err);
    g->pending = (int)get_long(d, "pending", &err);
    g->pending_rank = (int)get_long(d, "pending_rank", &err);
    g->attacker = (int)get_long(d, "attacker", &err);
    g->bluff = (int)get_long(d, "bluff", &err);
    g->idle_turns = (int)get_long(d, "idle_turns", &err);
    g->blocked = (int)get_long(d, "blocked", &err);
    if (err) goto fail;
    if ((v = PyDict_GetItemString(d, "version")) == NULL) goto fail;
    g->version = PyLong_AsLongLong(v);
    if (PyErr_Occurred()) goto fail;
    v = PyDict_GetItemString(d, "rng_seed");
    Py_XDECREF(g->rng_seed);
    g->rng_seed = Py_NewRef(v ? v : Py_None);
    if (v != NULL && v != Py_None) {
        int ok;
        mt_seed_key_of(v, g->rng_seed_key, &g->rng_seed_keylen, 40, &ok);
        if (!ok) goto fail;
    }
    free_rounds(g);
    g->keep_log = 1;
    if ((rounds = PyDict_GetItemString(d, "rounds")) == NULL) goto fail;
    for (Py_ssize_t i = 0; i < PySequence_Size(rounds); i++) {
        PyObject *r = PySequence_GetItem(rounds, i);
        int rc = r ? load_round(g, r) : -1;
        Py_XDECREF(r);
        if (rc < 0) goto fail;
    }
    set_seat_order(g);
    Py_RETURN_NONE;
fail:
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a field the native core cannot hold");
    return NULL;
}

/* ------------------------------------------------------------------ the Python type: rules, the deal, legal_actions, step */

/* The rules of rules.py's Rules, from the wrapper: (edition, n, teams, stack, bluffing,
 * penalize, seven_zero, jump_in, until_playable, force_play, agent_p_discard,
 * two_handed_rules, hand_size, alternative, elimination, target) */
static int configure(Core *g, PyObject *cfg)
{
    int e, n;
    if (!PyArg_ParseTuple(cfg, "iiiiiiiiiiiiiiid", &e, &n, &g->teams, &g->stack, &g->bluffing,
                          &g->penalize, &g->seven_zero, &g->jump_in, &g->until, &g->force_play,
                          &g->agent_p_discard, &g->two_handed_rules, &g->hand_size, &g->alternative,
                          &g->elimination, &g->target))
        return -1;
    if (e < 0 || e > 2 || n < 2 || n > MAXS || g->hand_size < 1 || g->hand_size * n + 1 > MAXC
        || g->teams < 0 || g->teams > n) {
        PyErr_SetString(PyExc_ValueError, "settings the native core cannot hold");
        return -1;
    }
    g->edition = e;
    g->n = n;
    g->peek_card = e == 1 ? MATER : -1;
    g->answer_card = e == 2 ? AGENT_P : -1;
    g->respond_all = g->stack > 0 || e == 2;
    return 0;
}

static void reset_match(Core *g)
{
    memset(g->scores, 0, sizeof g->scores);
    memset(g->score_float, 0, sizeof g->score_float);
    memset(g->eliminated, 0, sizeof g->eliminated);
    g->round_no = 0;
    g->dealer = 0;
    g->nwinners = 0;
    g->round_winner = -1;
    g->version = 0;
    g->has_rng = 0;
    free_rounds(g);
    clear_round(g);
}

static PyObject *Core_configure(Core *g, PyObject *cfg)
{
    if (configure(g, cfg) < 0) return NULL;
    g->keep_log = 1;
    reset_match(g);
    Py_RETURN_NONE;
}

/* Game.new's deal: the dealer by S1, the first round by S2 and S3 (seed as an int) */
static PyObject *Core_deal_new(Core *g, PyObject *seed)
{
    if (set_seed(g, seed) < 0) return NULL;
    reset_match(g);
    g->has_deal_rng = 0;
    g->dealer = choose_dealer(g);
    if (deal_round(g, 0, g->dealer) < 0) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

static PyObject *Core_start_round(Core *g, PyObject *Py_UNUSED(ignored))
{
    if (next_round(g) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *Core_legal_actions(Core *g, PyObject *arg)
{
    int out[N_ACTIONS + MAXW], k;
    long seat = PyLong_AsLong(arg);
    PyObject *t;
    if (seat == -1 && PyErr_Occurred()) return NULL;
    if (seat < 0 || seat >= g->n) return PyTuple_New(0);
    k = legal(g, (int)seat, out);
    t = PyTuple_New(k);
    if (t == NULL) return NULL;
    for (int i = 0; i < k; i++) PyTuple_SET_ITEM(t, i, PyLong_FromLong(out[i]));
    return t;
}

static PyObject *refuse(Core *g, PyObject *seat, PyObject *action)
{
    PyObject *r;
    if (refuse_hook == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "unokit.fast is not initialised");
        return NULL;
    }
    r = PyObject_CallFunctionObjArgs(refuse_hook, (PyObject *)g, seat, action, NULL);
    if (r == NULL) return NULL;
    Py_DECREF(r);
    PyErr_SetString(PyExc_RuntimeError, "the native core refused an action the engine takes");
    return NULL;
}

/* Game.step: the same checks and change of state (refusals are the engine's own) */
static PyObject *Core_step(Core *g, PyObject *const *args, Py_ssize_t nargs)
{
    int out[N_ACTIONS + MAXW], k, overflow = 0;
    long seat, a;
    PyObject *action, *parsed = NULL;
    if (nargs != 2) { PyErr_SetString(PyExc_TypeError, "step(seat, action)"); return NULL; }
    action = args[1];
    if (PyUnicode_Check(action) && parse_hook != NULL) {
        parsed = PyObject_CallOneArg(parse_hook, action);
        if (parsed == NULL) return NULL;
        action = parsed;
    }
    seat = PyLong_Check(args[0]) && !PyBool_Check(args[0]) ? PyLong_AsLongAndOverflow(args[0], &overflow) : -1;
    a = PyLong_Check(action) && !PyBool_Check(action) ? PyLong_AsLongAndOverflow(action, &overflow) : -1;
    if (overflow || seat < 0 || seat >= g->n || a < 0 || a >= N_ACTIONS) {
        PyObject *r = refuse(g, args[0], action);
        Py_XDECREF(parsed);
        return r;
    }
    k = legal(g, (int)seat, out);
    for (int i = 0; i < k; i++)
        if (out[i] == a) {
            Py_XDECREF(parsed);
            do_action(g, (int)seat, (int)a);
            if (g->oom) { g->oom = 0; return PyErr_NoMemory(); }
            Py_RETURN_NONE;
        }
    if (g->penalize && is_wrong_card(g, (int)seat, (int)a)) {
        Py_XDECREF(parsed);
        wrong_card(g, (int)seat, (int)a);
        Py_RETURN_NONE;
    }
    {
        PyObject *r = refuse(g, args[0], action);
        Py_XDECREF(parsed);
        return r;
    }
}

static PyObject *Core_hooks(PyObject *Py_UNUSED(mod), PyObject *args)
{
    PyObject *p, *r;
    if (!PyArg_ParseTuple(args, "OO", &p, &r)) return NULL;
    Py_XDECREF(parse_hook);
    Py_XDECREF(refuse_hook);
    parse_hook = Py_NewRef(p);
    refuse_hook = Py_NewRef(r);
    Py_RETURN_NONE;
}

static PyObject *get_turn(Core *g, void *Py_UNUSED(c)) { return PyLong_FromLong(g->turn); }
static PyObject *get_phase(Core *g, void *Py_UNUSED(c)) { return PyLong_FromLong(g->phase); }
static PyObject *get_n(Core *g, void *Py_UNUSED(c)) { return PyLong_FromLong(g->n); }
static PyObject *get_version(Core *g, void *Py_UNUSED(c)) { return PyLong_FromLongLong(g->version); }

static PyObject *Core_new_obj(PyTypeObject *type, PyObject *Py_UNUSED(a), PyObject *Py_UNUSED(k))
{
    Core *g = (Core *)type->tp_alloc(type, 0);
    if (g == NULL) return NULL;
    g->n = 2;
    g->keep_log = 1;
    g->rng_seed = Py_NewRef(Py_None);
    g->seed = PyLong_FromLong(0);
    strcpy(g->seed_text, "0");
    clear_round(g);
    g->disc[0] = 0;
    g->ndisc = 1;
    return (PyObject *)g;
}

static void Core_dealloc(Core *g)
{
    free_rounds(g);
    PyMem_Free(g->rounds);
    Py_XDECREF(g->seed);
    Py_XDECREF(g->deal_gauss);
    Py_XDECREF(g->rng_gauss);
    Py_XDECREF(g->rng_seed);
    Py_TYPE(g)->tp_free((PyObject *)g);
}

/* ------------------------------------------------------------------ batch (unokit/bench.py's loops) */

static void mt_seed_int(MT *m, unsigned long long n)
{
    uint32_t key[2] = {(uint32_t)n, (uint32_t)(n >> 32)};
    mt_init_by_array(m, key, n >> 32 ? 2 : 1);
}

/* One decision of bench.py's policies: uniform (_engine_round) or playable-first
 * (_playable_first_round, RLCard's action space). */
static int choose(Core *g, MT *rng, int rl)
{
    int out[N_ACTIONS + MAXW], k = legal(g, g->turn, out), m = 0;
    if (!rl || g->phase > DRAWN) return out[randbelow(rng, k)];
    if (g->phase == PLAY) {
        while (out[m] != A_DRAW) m++;
        return m ? out[randbelow(rng, m)] : A_DRAW;
    }
    while (m < k && out[m] < 2 * UNO_OFFSET) m++;
    return m ? out[randbelow(rng, m)] : out[0];
}

/* batch(settings, games, seed, rl, match, stream, progress) -> (games, steps): the games of
 * bench.py's engine_loop (rl false) or playable_first_loop (rl true), game i dealt as
 * Game.new(..., seed * 1_000_003 + i, deal_rng=...), step for step. */
static PyObject *batch(PyObject *Py_UNUSED(mod), PyObject *args)
{
    PyObject *cfg, *progress;
    long long games, seed, steps = 0;
    int rl, match, stream;
    Core *g;
    MT own;
    if (!PyArg_ParseTuple(args, "OLLpppO", &cfg, &games, &seed, &rl, &match, &stream, &progress)) return NULL;
    if (seed < 0 || seed > (1LL << 40) || games < 0 || games > (1LL << 40)) {
        PyErr_SetString(PyExc_ValueError, "seed and games must be 0 to 2**40");
        return NULL;
    }
    g = PyMem_Calloc(1, sizeof(Core));
    if (g == NULL) return PyErr_NoMemory();
    if (configure(g, cfg) < 0) { PyMem_Free(g); return NULL; }
    mt_seed_int(stream ? &g->deal_rng : &own, (unsigned long long)seed);
    for (long long i = 0; i < games; i++) {
        MT *rng = stream ? &g->deal_rng : &own;
        snprintf(g->seed_text, sizeof g->seed_text, "%lld", seed * 1000003LL + i);
        reset_match(g);
        g->has_deal_rng = stream;
        g->dealer = choose_dealer(g);
        if (deal_round(g, 0, g->dealer) < 0) break;
        for (;;) {
            while (g->phase < ROUND_OVER) {
                do_action(g, g->turn, choose(g, rng, rl));
                steps++;
            }
            if (!match || g->phase != ROUND_OVER) break;
            if (next_round(g) < 0) break;
        }
        if (progress != Py_None) {
            PyObject *r = PyObject_CallFunction(progress, "L", i + 1);
            if (r == NULL) break;
            Py_DECREF(r);
        }
    }
    free_rounds(g);
    PyMem_Free(g->rounds);
    Py_XDECREF(g->rng_seed);
    Py_XDECREF(g->rng_gauss);
    PyMem_Free(g);
    if (PyErr_Occurred()) return NULL;
    return Py_BuildValue("(LL)", games, steps);
}

/* ------------------------------------------------------------------ the module */

static PyMethodDef Core_methods[] = {
    {"_configure", (PyCFunction)Core_configure, METH_O, "Set the rules (a tuple of the settings) and empty the match."},
    {"_deal_new", (PyCFunction)Core_deal_new, METH_O, "Choose the dealer and deal the first round from the seed."},
    {"_load", (PyCFunction)Core_load, METH_O, "Set every field from a State's values."},
    {"_fields", (PyCFunction)Core_fields, METH_NOARGS, "Every field as a State holds it."},
    {"start_round", (PyCFunction)Core_start_round, METH_NOARGS, "Deal the next round (the deal passes left)."},
    {"legal_actions", (PyCFunction)Core_legal_actions, METH_O, "Every action seat may take now, as Game.legal_actions."},
    {"step", (PyCFunction)(void (*)(void))Core_step, METH_FASTCALL, "Apply seat's action, or raise the engine's error."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Core_getset[] = {
    {"turn", (getter)get_turn, NULL, "The seat on turn.", NULL},
    {"phase", (getter)get_phase, NULL, "The phase's index (core/phases.py).", NULL},
    {"n", (getter)get_n, NULL, "The number of seats.", NULL},
    {"version", (getter)get_version, NULL, "The number of actions applied, deals included.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "unokit.fast._core.Core",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "The rules state machine of unokit.core in C (see unokit.fast.FastGame).",
    .tp_new = Core_new_obj,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_methods = Core_methods,
    .tp_getset = Core_getset,
};

static PyMethodDef module_methods[] = {
    {"batch", batch, METH_VARARGS, "Play many games under a built-in policy; (games, steps)."},
    {"_hooks", Core_hooks, METH_VARARGS, "The engine's parse_action and refusal, for step."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "unokit.fast._core", "The native rules core of unokit.fast.", -1,
    module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void)
{
    PyObject *m;
    if (PyType_Ready(&CoreType) < 0) return NULL;
    m = PyModule_Create(&core_module);
    if (m == NULL) return NULL;
    if (PyModule_AddObjectRef(m, "Core", (PyObject *)&CoreType) < 0) { Py_DECREF(m); return NULL; }
    return m;
}
