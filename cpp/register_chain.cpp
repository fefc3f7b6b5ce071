// The built-in bots' plain turns in the core: a run of lean turns (register_turn.cpp's lean_turn: a plain discard,
// the claim scan, the next seat's draw) from a given discard, where each further discard is the one the seat's bot
// would choose in Python, played in one crossing (hupai.game.mahjong.flow.MahjongFlow._lean_chain, for
// hupai.game.match.play_until). A bot the core may play is described by plain data: RandomBot (uniform over its
// discards) or GreedyBot's plain discard (the best of discard_scores, ties broken at random), each with its random
// stream as a buffer it owns (hupai.bots._Stream, CPython's MT19937: mt19937.hpp). Also the stream's own
// functions, which the Python bots call, so both paths draw from one stream.
//
// Like lean_turn, the run writes plain buffers only (the hands' counts, the per-seat counters, the piles, the
// ready cache, the bots' streams) and creates no Python object but its return value. Every argument is read and
// checked before the first byte is written; what a later turn needs that is not known at the start (a counter at
// its limit, a fifth copy) is checked before that turn draws or writes anything, and the run stops there instead
// (the flow's own path then meets it).
#include <Python.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "analysis.hpp"
#include "claims.hpp"
#include "mt19937.hpp"
#include "pyargs.hpp"
#include "register.hpp"
#include "tiles.hpp"

namespace py = pybind11;

namespace hupai::binding {

namespace {

// The turn pack's items (MahjongFlow._pack_turn, as lean_turn reads them).
enum PackItem : Py_ssize_t {
    kHands,
    kDraws,
    kDiscardsMade,
    kMeldRecords,
    kPungs,
    kLouhu,
    kDiscardActions,
    kWallTiles,
    kForms,
    kPiles,
    kPackSize,
};

constexpr Py_ssize_t kPileCapacity = 256;
constexpr Py_ssize_t kMaxWall = Py_ssize_t(kNumKinds) * kMaxCopies;
constexpr long long kLouhuMask = (1LL << 35) - 1;
constexpr Py_ssize_t kMeldWidth = 6;
constexpr std::uint8_t kReadyUnknown = 255;

// What a seat's bot is (hupai.bots: the first item of its _core_turns() answer).
enum BotKind : long { kRandomBot = 1, kGreedyBot = 2 };

std::nullptr_t fail(const char* message) {
    PyErr_SetString(PyExc_ValueError, message);
    return nullptr;
}

bool small_int(PyObject* value, long low, long high, long& out) {
    if (!PyLong_CheckExact(value)) return fail("lean_chain: an int was expected"), false;
    int overflow = 0;
    const long parsed = PyLong_AsLongAndOverflow(value, &overflow);
    if (overflow != 0 || parsed < low || parsed > high) return fail("lean_chain: an int out of range"), false;
    out = parsed;
    return true;
}

// A stream's buffer: an exact bytearray of mt::kStateBytes with a valid index, else null (and an error set).
std::uint8_t* stream_buffer(PyObject* value) {
    if (!PyByteArray_CheckExact(value) || std::size_t(PyByteArray_GET_SIZE(value)) != mt::kStateBytes) {
        PyErr_SetString(PyExc_ValueError, "a random stream must be a bytearray of 2500 bytes");
        return nullptr;
    }
    auto* state = reinterpret_cast<std::uint8_t*>(PyByteArray_AS_STRING(value));
    if (!mt::valid(state)) {
        PyErr_SetString(PyExc_ValueError, "a random stream's index must be in 0..624");
        return nullptr;
    }
    return state;
}

// stream_seed(state, key) -> None: random.seed(n)'s state for the key, abs(n)'s 32-bit words least significant
// first as little-endian bytes (4 bytes of 0 for n = 0).
PyObject* stream_seed(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "stream_seed expects a stream's buffer and the key's bytes");
        return nullptr;
    }
    if (!PyByteArray_CheckExact(args[0]) || std::size_t(PyByteArray_GET_SIZE(args[0])) != mt::kStateBytes) {
        PyErr_SetString(PyExc_ValueError, "a random stream must be a bytearray of 2500 bytes");
        return nullptr;
    }
    if (!PyBytes_CheckExact(args[1]) || PyBytes_GET_SIZE(args[1]) == 0 || PyBytes_GET_SIZE(args[1]) % 4 != 0) {
        PyErr_SetString(PyExc_ValueError, "stream_seed: the key must be bytes of whole 32-bit words");
        return nullptr;
    }
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(PyBytes_AS_STRING(args[1]));
    const std::size_t length = std::size_t(PyBytes_GET_SIZE(args[1])) / 4;
    std::uint32_t* key = static_cast<std::uint32_t*>(PyMem_Malloc(length * sizeof(std::uint32_t)));
    if (key == nullptr) return PyErr_NoMemory();
    for (std::size_t i = 0; i < length; ++i)
        key[i] = std::uint32_t(bytes[4 * i]) | std::uint32_t(bytes[4 * i + 1]) << 8 |
                 std::uint32_t(bytes[4 * i + 2]) << 16 | std::uint32_t(bytes[4 * i + 3]) << 24;
    mt::seed(reinterpret_cast<std::uint8_t*>(PyByteArray_AS_STRING(args[0])), key, length);
    PyMem_Free(key);
    Py_RETURN_NONE;
}

// stream_random(state) -> float: random.Random.random() on the stream.
PyObject* stream_random(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 1) {
        PyErr_SetString(PyExc_TypeError, "stream_random expects a stream's buffer");
        return nullptr;
    }
    std::uint8_t* state = stream_buffer(args[0]);
    if (state == nullptr) return nullptr;
    return PyFloat_FromDouble(mt::random(state));
}

// stream_pick(state, n) -> int: int(random() * n) on the stream, the index the bots pick among n (n >= 0; for 0,
// 0, as in Python).
PyObject* stream_pick(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "stream_pick expects a stream's buffer and a count");
        return nullptr;
    }
    long n = 0;
    if (!PyLong_CheckExact(args[1]) || (n = PyLong_AsLong(args[1])) < 0 || n > (1L << 31)) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "stream_pick: the count must be an int in 0..2**31");
        return nullptr;
    }
    std::uint8_t* state = stream_buffer(args[0]);
    if (state == nullptr) return nullptr;
    return PyLong_FromLong(mt::pick(state, n));
}

// The improving copies GreedyBot counts (register_analysis.cpp's discard_scores): copies of the kinds that would
// lower the shanten, less those the seat holds.
int unseen_copies(const std::uint8_t* counts, std::uint64_t improving) {
    int copies = 0;
    for (std::uint64_t bits = improving; bits != 0; bits &= bits - 1)
        copies += kMaxCopies - counts[__builtin_ctzll(bits)];
    return copies;
}

// A seat's bot as the core plays it.
struct Bot {
    long kind = 0;  // 0: not played by the core
    unsigned forms = 0;  // GreedyBot's advice's winning forms
    std::uint8_t* stream = nullptr;
};

// The discard a seat's bot chooses from its hand (a complete hand of `melds` melds: checked first), drawing from its
// stream as the Python bot does; -1 (nothing drawn) if GreedyBot's analysis refuses the hand.
long choose(const Bot& bot, const std::uint8_t* hand, int melds) {
    long held = 0;
    for (int kind = 0; kind < kNumKinds; ++kind) held += hand[kind] != 0;
    if (held == 0) return -1;
    if (bot.kind == kRandomBot) {  // legal_actions[int(random() * n)]: the index-th held kind
        long index = mt::pick(bot.stream, held);
        for (int kind = 0; kind < kNumKinds; ++kind)
            if (hand[kind] != 0 && index-- == 0) return kind;
        return -1;
    }
    HandQuery query;
    query.counts = hand;
    query.melds = melds;
    query.forms = bot.forms;
    if (check_query(query, SizeRule::kComplete) != 0) return -1;
    std::int8_t shanten_after[kNumKinds];
    std::uint64_t improving[kNumKinds];
    discard_analysis(query, shanten_after, improving);
    // GreedyBot.act: the best score among the held kinds, the pick-th of the tied (pick = int(random() * ties)).
    int scores[kNumKinds];
    int best = 0, ties = 0;
    for (int kind = 0; kind < kNumKinds; ++kind) {
        if (hand[kind] == 0) continue;
        scores[kind] = unseen_copies(hand, improving[kind]) - 256 * int(shanten_after[kind]);
        if (ties == 0 || scores[kind] > best) {
            best = scores[kind];
            ties = 1;
        } else if (scores[kind] == best) {
            ++ties;
        }
    }
    long index = mt::pick(bot.stream, ties);
    for (int kind = 0; kind < kNumKinds; ++kind)
        if (hand[kind] != 0 && scores[kind] == best && index-- == 0) return kind;
    return -1;
}

// A turn's record in the flat table of them (`turns`: per discarder, tile and drawn tile).
constexpr Py_ssize_t kMaxSeats = 4;
constexpr Py_ssize_t kTurnRecords = kMaxSeats * kNumKinds * kNumKinds;

// lean_chain(pack, ready, seat, tile, drawn, head, limit, chowers, bots, hook, turns)
//     -> (moves, tile, result, records, discards).
PyObject* lean_chain(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 11 || !PyTuple_CheckExact(args[0]) || PyTuple_GET_SIZE(args[0]) != kPackSize) {
        PyErr_SetString(PyExc_TypeError, "lean_chain expects the flow's turn pack and 10 more arguments");
        return nullptr;
    }
    PyObject* turns = args[10];
    if (!PyTuple_CheckExact(turns) || PyTuple_GET_SIZE(turns) != kTurnRecords)
        return fail("lean_chain: the turns' records must be a tuple of 4 * 34 * 34");
    PyObject* pack[kPackSize];
    for (Py_ssize_t item = 0; item < kPackSize; ++item) pack[item] = PyTuple_GET_ITEM(args[0], item);
    PyObject* hands_list = pack[kHands];
    if (!PyList_CheckExact(hands_list) || PyList_GET_SIZE(hands_list) < 2 || PyList_GET_SIZE(hands_list) > 4)
        return fail("lean_chain: hands must be a list of 2..4 seats");
    const Py_ssize_t seats = PyList_GET_SIZE(hands_list);
    auto counters = [seats](PyObject* value) -> std::uint8_t* {
        if (!PyByteArray_CheckExact(value) || PyByteArray_GET_SIZE(value) != seats) return nullptr;
        return reinterpret_cast<std::uint8_t*>(PyByteArray_AS_STRING(value));
    };
    auto per_seat = [seats](PyObject* value) { return PyList_CheckExact(value) && PyList_GET_SIZE(value) == seats; };
    std::uint8_t* draws = counters(pack[kDraws]);
    std::uint8_t* discards_made = counters(pack[kDiscardsMade]);
    std::uint8_t* cache = counters(args[1]);
    PyObject* chowers_tuple = args[7];
    PyObject* bots_tuple = args[8];
    if (draws == nullptr || discards_made == nullptr || cache == nullptr || draws == discards_made ||
        cache == draws || cache == discards_made || !per_seat(pack[kPiles]) || !per_seat(pack[kMeldRecords]) ||
        !per_seat(pack[kPungs]) || !per_seat(pack[kLouhu]) || !PyTuple_CheckExact(pack[kDiscardActions]) ||
        PyTuple_GET_SIZE(pack[kDiscardActions]) < seats || !PyBytes_CheckExact(pack[kWallTiles]) ||
        PyBytes_GET_SIZE(pack[kWallTiles]) > kMaxWall || !PyTuple_CheckExact(chowers_tuple) ||
        PyTuple_GET_SIZE(chowers_tuple) != seats || !PyTuple_CheckExact(bots_tuple) ||
        PyTuple_GET_SIZE(bots_tuple) != seats)
        return fail("lean_chain: a per-seat list, buffer or table of the wrong shape");
    const long wall_size = long(PyBytes_GET_SIZE(pack[kWallTiles]));
    const auto* wall = reinterpret_cast<const std::uint8_t*>(PyBytes_AS_STRING(pack[kWallTiles]));
    long seat = 0, first = 0, drawn = 0, head = 0, limit = 0, forms = 0;
    if (!small_int(args[2], 0, long(seats) - 1, seat) || !small_int(args[3], 0, kNumKinds - 1, first) ||
        !small_int(args[4], -1, kNumKinds - 1, drawn) || !small_int(args[5], 0, wall_size, head) ||
        !small_int(args[6], -wall_size, wall_size, limit) ||
        !small_int(pack[kForms], 1, kAllForms, forms))
        return nullptr;
    // The rules' word on plain turns (Rules.plain_turn_mask), if they have a turn hook: None, or (the seats whose
    // turns are never plain, the wall's tail): another seat's turn is plain, besides the core's own test, when the
    // wall still holds a tile after its draw and its hand is not ready (shanten above 0).
    long hooked = -1, tail = 0;
    PyObject* hook = args[9];
    if (hook != Py_None) {
        if (!PyTuple_CheckExact(hook) || PyTuple_GET_SIZE(hook) != 2)
            return fail("lean_chain: the rules' hook must be None or (seats, tail)");
        if (!small_int(PyTuple_GET_ITEM(hook, 0), 0, (1L << seats) - 1, hooked) ||
            !small_int(PyTuple_GET_ITEM(hook, 1), 0, wall_size, tail))
            return nullptr;
    }
    for (long at = head; at < std::min(limit, wall_size); ++at)
        if (wall[at] >= kNumKinds) return fail("lean_chain: a wall tile of no kind");

    // Every seat's state, read and checked before anything is written.
    std::uint8_t counts[4][kNumKinds];
    std::uint8_t* buffers[4] = {};
    std::uint8_t* piles[4] = {};
    PyObject* actions[4] = {};
    long pungs[4] = {}, chowers[4] = {};
    bool blocked[4] = {};  // a 漏胡 block, which the seat's own draw ends (the flow's draw clears it): no draw here
    Bot bots[4];
    ClaimQuery query;
    query.num_players = int(seats);
    for (Py_ssize_t s = 0; s < seats; ++s) {
        PyObject* hand = PyList_GET_ITEM(hands_list, s);
        if (!PyByteArray_CheckExact(hand) || PyByteArray_GET_SIZE(hand) != kNumKinds)
            return fail("lean_chain: a hand must be a bytearray of 34 counts");
        buffers[s] = reinterpret_cast<std::uint8_t*>(PyByteArray_AS_STRING(hand));
        for (Py_ssize_t other = 0; other < s; ++other)
            if (buffers[other] == buffers[s]) return fail("lean_chain: two seats share one hand");
        std::memcpy(counts[s], buffers[s], kNumKinds);
        if (*std::max_element(counts[s], counts[s] + kNumKinds) > kMaxCopies)
            return fail("lean_chain: a count above 4");
        query.hands[s] = counts[s];
        PyObject* records = PyList_GET_ITEM(pack[kMeldRecords], s);
        if (!PyBytes_CheckExact(records) || PyBytes_GET_SIZE(records) % kMeldWidth != 0 ||
            PyBytes_GET_SIZE(records) > kMaxMelds * kMeldWidth)
            return fail("lean_chain: a seat's meld records must be bytes of at most 4 records of 6 bytes");
        query.melds[s] = int(PyBytes_GET_SIZE(records) / kMeldWidth);
        const std::uint8_t ready = cache[s];
        if (ready > 1 && ready != kReadyUnknown) return fail("lean_chain: a ready byte must be 0, 1 or 255");
        query.ready[s] = ready == kReadyUnknown ? -1 : static_cast<signed char>(ready);
        if (!small_int(PyList_GET_ITEM(pack[kPungs], s), 0, (1L << kNumKinds) - 1, pungs[s]) ||
            !small_int(PyTuple_GET_ITEM(chowers_tuple, s), 0, (1L << seats) - 1, chowers[s]))
            return nullptr;
        PyObject* louhu_item = PyList_GET_ITEM(pack[kLouhu], s);
        int overflow = 0;
        const long long louhu =
            PyLong_CheckExact(louhu_item) ? PyLong_AsLongLongAndOverflow(louhu_item, &overflow) : -1;
        if (overflow != 0 || louhu < 0 || louhu > kLouhuMask)
            return fail("lean_chain: a 漏胡 mask must be an int in 0..2**35-1");
        blocked[s] = louhu != 0;
        PyObject* pile = PyList_GET_ITEM(pack[kPiles], s);
        if (!PyByteArray_CheckExact(pile) || PyByteArray_GET_SIZE(pile) != kPileCapacity)
            return fail("lean_chain: a discard pile must be a bytearray of 256 bytes");
        piles[s] = reinterpret_cast<std::uint8_t*>(PyByteArray_AS_STRING(pile));
        actions[s] = PyTuple_GET_ITEM(pack[kDiscardActions], s);
        if (!PyTuple_CheckExact(actions[s]) || PyTuple_GET_SIZE(actions[s]) != kNumKinds)
            return fail("lean_chain: a seat's discard actions must be a tuple of 34");
        PyObject* bot = PyTuple_GET_ITEM(bots_tuple, s);
        if (bot == Py_None) continue;
        long kind = 0, bot_forms = 0;
        if (!PyTuple_CheckExact(bot) || PyTuple_GET_SIZE(bot) != 3)
            return fail("lean_chain: a seat's bot must be None or (kind, forms, stream)");
        if (!small_int(PyTuple_GET_ITEM(bot, 0), kRandomBot, kGreedyBot, kind) ||
            !small_int(PyTuple_GET_ITEM(bot, 1), 1, kAllForms, bot_forms))
            return nullptr;
        std::uint8_t* stream = stream_buffer(PyTuple_GET_ITEM(bot, 2));
        if (stream == nullptr) return nullptr;
        bots[s] = Bot{kind, unsigned(bot_forms), stream};
    }
    if (counts[seat][first] == 0) return fail("lean_chain: the discarder does not hold the tile");

    std::uint8_t moves[2 * kMaxWall];
    Py_ssize_t made = 0;
    const long start = seat;
    long tail_tile = -1;
    PyObject* result = nullptr;
    while (true) {
        const long next = (seat + 1) % long(seats);
        // What this turn may need, checked before its bot draws or anything is written: on the first turn (given,
        // as lean_turn's) an error; later the run stops before the turn (the flow's own path meets the same fact).
        long next_tile = head < limit && !blocked[next] ? long(wall[head]) : -1;
        if (discards_made[seat] == 0xFF || (next_tile >= 0 && (counts[next][next_tile] >= kMaxCopies ||
                                                               draws[next] == 0xFF))) {
            if (made == 0) return fail("lean_chain: a counter at its limit or a fifth copy drawn");
            break;
        }
        const long tile = made == 0 ? first : choose(bots[seat], counts[seat], query.melds[seat]);
        if (tile < 0) break;  // only GreedyBot's check refuses, before it draws
        // The discard, onto the seat's pile, and the discarder's waiting hand (as lean_turn).
        --buffers[seat][tile];
        --counts[seat][tile];
        piles[seat][discards_made[seat]++] = std::uint8_t(tile);
        if (tile != drawn || query.ready[seat] < 0)
            query.ready[seat] = hand_ready(counts[seat], query.melds[seat], unsigned(forms)) ? 1 : 0;
        query.tile = int(tile);
        query.discarder = int(seat);
        query.forms = unsigned(forms);
        query.chow_seats = tile >= 27 ? 0U : unsigned(chowers[seat]);
        query.flags = kMeldsClaimable | kKongAllowed | kCheckWins;
        const std::uint32_t shapes = claim_shapes(query);
        if (shapes != 0 || next_tile < 0) {  // a claim window or the flow's own next turn: the flow goes on
            tail_tile = tile;
            result = PyLong_FromUnsignedLong(shapes);
            break;
        }
        ++buffers[next][next_tile];
        ++counts[next][next_tile];
        ++draws[next];
        ++head;
        moves[made++] = std::uint8_t(tile);
        moves[made++] = std::uint8_t(next_tile);
        seat = next;
        drawn = next_tile;
        // Is the new turn only its discards (lean_turn's test)?
        const std::uint8_t* hand = counts[seat];
        bool plain = !(query.ready[seat] != 0 && hand_wins(hand, query.melds[seat], unsigned(forms))) &&
                     std::memchr(hand, kMaxCopies, kNumKinds) == nullptr;
        for (auto rest = static_cast<std::uint64_t>(pungs[seat]); plain && rest != 0; rest &= rest - 1)
            plain = hand[__builtin_ctzll(rest)] == 0;
        if (plain && hooked >= 0) {
            HandQuery own;
            own.counts = hand;
            own.melds = query.melds[seat];
            own.forms = unsigned(forms);
            plain = (hooked >> seat & 1) == 0 && head != tail && check_query(own, SizeRule::kComplete) == 0 &&
                    hand_cost(own) > 1;
        }
        if (!plain) {
            Py_INCREF(Py_None);
            result = Py_None;
            break;
        }
        if (bots[seat].kind == 0) break;  // a seat the core does not play: its discards are returned
    }
    // Written before any object is made (no finalizer runs between the checks and the writes).
    for (Py_ssize_t s = 0; s < seats; ++s)
        cache[s] = query.ready[s] < 0 ? kReadyUnknown : std::uint8_t(query.ready[s]);
    if (result == nullptr && tail_tile < 0) {
        // The turn the run stopped at, if plain: its held kinds' discards.
        const std::uint8_t* hand = counts[seat];
        Py_ssize_t held = 0;
        for (int kind = 0; kind < kNumKinds; ++kind) held += hand[kind] != 0;
        result = PyTuple_New(held);
        if (result != nullptr) {
            Py_ssize_t at = 0;
            for (int kind = 0; kind < kNumKinds; ++kind) {
                if (hand[kind] == 0) continue;
                PyObject* action = PyTuple_GET_ITEM(actions[seat], kind);
                Py_INCREF(action);
                PyTuple_SET_ITEM(result, at++, action);
            }
        }
    }
    if (result == nullptr) return nullptr;
    // The turns' records and the discards after the first (the caller's log and action list take them as they
    // are): one record per move, one discard action per later move and for the last discard after a move.
    const Py_ssize_t played = made / 2;
    const Py_ssize_t later = played == 0 ? 0 : played - 1 + (tail_tile >= 0 ? 1 : 0);
    PyObject* records = PyTuple_New(played);
    PyObject* discards = records == nullptr ? nullptr : PyTuple_New(later);
    if (discards != nullptr) {
        long at_seat = start;
        for (Py_ssize_t at = 0; at < played; ++at) {
            const long tile = moves[2 * at];
            const Py_ssize_t index = (Py_ssize_t(at_seat) * kNumKinds + tile) * kNumKinds + moves[2 * at + 1];
            PyObject* record = PyTuple_GET_ITEM(turns, index);
            Py_INCREF(record);
            PyTuple_SET_ITEM(records, at, record);
            if (at > 0) {
                PyObject* action = PyTuple_GET_ITEM(actions[at_seat], tile);
                Py_INCREF(action);
                PyTuple_SET_ITEM(discards, at - 1, action);
            }
            at_seat = (at_seat + 1) % long(seats);
        }
        if (played > 0 && tail_tile >= 0) {  // (at_seat: the last discarder, whose discard no draw followed)
            PyObject* action = PyTuple_GET_ITEM(actions[at_seat], tail_tile);
            Py_INCREF(action);
            PyTuple_SET_ITEM(discards, later - 1, action);
        }
    }
    PyObject* moved =
        discards == nullptr ? nullptr : PyBytes_FromStringAndSize(reinterpret_cast<const char*>(moves), made);
    PyObject* tile = moved == nullptr ? nullptr : PyLong_FromLong(tail_tile);
    PyObject* out = tile == nullptr ? nullptr : PyTuple_New(5);
    if (out == nullptr) {
        Py_XDECREF(records);
        Py_XDECREF(discards);
        Py_XDECREF(moved);
        Py_XDECREF(tile);
        Py_DECREF(result);
        return nullptr;
    }
    PyTuple_SET_ITEM(out, 0, moved);
    PyTuple_SET_ITEM(out, 1, tile);
    PyTuple_SET_ITEM(out, 2, result);
    PyTuple_SET_ITEM(out, 3, records);
    PyTuple_SET_ITEM(out, 4, discards);
    return out;
}

PyMethodDef kChainMethods[] = {
    {"stream_seed", as_method(stream_seed), METH_FASTCALL,
     "stream_seed($module, state, key, /)\n--\n\n"
     "Seed a random stream (a bytearray of 2500 bytes: CPython's MT19937 state, 624 words and the index, native\n"
     "uint32) as random.seed(n) does: `key` is abs(n)'s 32-bit words, least significant first, as little-endian\n"
     "bytes (4 zero bytes for 0)."},
    {"stream_random", as_method(stream_random), METH_FASTCALL,
     "stream_random($module, state, /)\n--\n\n"
     "random.Random.random() on a random stream's buffer (the next float in [0, 1); the buffer advances)."},
    {"stream_pick", as_method(stream_pick), METH_FASTCALL,
     "stream_pick($module, state, n, /)\n--\n\n"
     "int(random() * n) on a random stream's buffer (n in 0..2**31): the index of the bots' uniform pick."},
    {"lean_chain", as_method(lean_chain), METH_FASTCALL,
     "lean_chain($module, pack, ready, seat, tile, drawn, head, limit, chowers, bots, hook, turns, /)\n--\n\n"
     "Lean turns (see lean_turn) in one crossing: `seat` discards `tile` (its legal discard, as lean_turn's), then\n"
     "each next seat with a bot discards what its Python side would choose. `chowers`: per seat the chow mask of\n"
     "its discards; `bots`: per seat None (not played here) or (kind, forms, stream): kind 1 RandomBot (its\n"
     "discards' index int(random() * n)), 2 GreedyBot's plain discard (the best discard_scores in `forms`, the tied\n"
     "broken by int(random() * ties)); stream a bytearray (stream_seed). Returns (moves, tile, result): moves,\n"
     "bytes of (tile, drawn) per turn whose discard nobody could claim and whose next seat drew; tile -1 and result\n"
     "the turn now (its discards, a tuple, if only its discards: a seat without a bot; else None), or tile the last\n"
     "discard, made without a draw, and result the claim scan's shapes (0: nobody may claim, the wall ends or a\n"
     "漏胡 block ends with the next seat's draw).\n"
     "`hook`: None (a turn is plain by the core's test alone), or (seats, tail) for rules with a turn hook: a turn\n"
     "is plain only if its seat's bit is not in `seats`, the wall's head after its draw is not `tail` and its hand\n"
     "is not ready (shanten above 0). Writes only the hands, counters, piles, ready cache and streams, after every\n"
     "argument is checked.\n"
     "`turns`: the records of plain turns, a flat tuple indexed (seat * 34 + tile) * 34 + drawn. Also returned:\n"
     "records, the moves' records from `turns`, and discards, the discard actions (from the pack) of every discard\n"
     "after the first (the last one included, if a move came before it): what the caller's log and action list\n"
     "take."},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace

void register_chain(py::module_& m) { add_functions(m, kChainMethods); }

}  // namespace hupai::binding
