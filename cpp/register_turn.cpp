// The mahjong flow's lean turn in one crossing (hupai.game.mahjong.flow.MahjongFlow._lean_turn): a plain discard, the
// claim scan of every other seat, and when nobody can claim and the wall goes on, the next seat's draw and the
// question whether its turn is only its discards. The flow decides everything around it in Python (whether the
// path applies, claim windows, the wall end, the rules' turn hook) and keeps its own books (discards, 漏胡 blocks,
// events, the Table's fields) from what this returns. The core reads the engine's per-hand objects (hands, meld
// counts from the seats' meld records, exposed-pung masks, the next seat's 漏胡 mask, an int) and writes plain
// buffers only: the two hand counts it moves (bytearrays of 34 counts), the two per-seat counters and the ready
// cache (bytearrays, a byte per seat) and the discarder's pile (its tile written at its count of discards made, a
// bytearray). It stores, creates or changes no other Python object except its return value, and everything is
// read and checked first, so a malformed argument (an engine bug, never a player's action) raises before any byte
// changes.
#include <Python.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "analysis.hpp"
#include "claims.hpp"
#include "pyargs.hpp"
#include "register.hpp"
#include "tiles.hpp"
#include "wild_yunxiao.hpp"

namespace py = pybind11;

namespace hupai::binding {

namespace {

// The per-hand tuple's items (MahjongFlow._pack_turn): objects the engine keeps for the whole hand.
enum PackItem : Py_ssize_t {
    kHands,           // list of bytearray(34) per seat: the discard and the draw move one count each
    kDraws,           // bytearray, per seat its draws: the draw adds one
    kDiscardsMade,    // bytearray, per seat its discards: the discard adds one
    kMeldRecords,     // list of bytes per seat, its meld records (Table.meld_records: only their count is read)
    kPungs,           // list of ints per seat: its exposed pungs' kinds as a 34-bit mask
    kLouhu,           // list of ints per seat, its 漏胡 mask (Table.louhu: bits 0..33 kinds, bit 34 every tile)
    kDiscardActions,  // tuple per seat of 34 discard actions (returned, never read)
    kWallTiles,       // bytes, the wall's tiles (a kind a byte): the next seat draws the one at the head
    kForms,           // int, the winning forms (hupai.Forms)
    kPiles,           // list of bytearray(kPileCapacity) per seat: its discards in order, the next at discards_made
    kPackSize,
};

// A discard pile's buffer (hupai.game.state.table.PILE_CAPACITY): one size for every seat, which no hand (34) or
// counter (a byte per seat) has; its first discards_made[seat] bytes are the seat's discards in order, a claimed
// one marked with kClaimed.
constexpr Py_ssize_t kPileCapacity = 256;
constexpr std::uint8_t kClaimed = 0x80;

// The most tiles a wall of 34 kinds holds (four of each): a longer buffer is no wall.
constexpr Py_ssize_t kMaxWall = Py_ssize_t(kNumKinds) * kMaxCopies;

bool fail(const char* message) {
    PyErr_SetString(PyExc_ValueError, message);
    return false;
}

// A 漏胡 mask's bits (hupai.game.state.table.LOUHU_ALL is the highest): a mask is an int in 0..kLouhuMask.
constexpr long long kLouhuMask = (1LL << 35) - 1;
// A meld record's width (hupai.hand.MELD_WIDTH): a seat's meld count is its records' size over it.
constexpr Py_ssize_t kMeldWidth = 6;

// A small exact int in low..high (the engine's own ints; a bool is refused).
bool small_int(PyObject* value, long low, long high, long& out) {
    if (!PyLong_CheckExact(value)) return fail("lean_turn: an int was expected");
    int overflow = 0;
    const long parsed = PyLong_AsLongAndOverflow(value, &overflow);
    if (overflow != 0 || parsed < low || parsed > high) return fail("lean_turn: an int out of range");
    out = parsed;
    return true;
}

bool seat_list(PyObject* value, Py_ssize_t seats) {
    return PyList_CheckExact(value) && PyList_GET_SIZE(value) == seats;
}

bool seat_tables(PyObject* value, Py_ssize_t seats) {
    if (!PyTuple_CheckExact(value) || PyTuple_GET_SIZE(value) < seats) return false;
    for (Py_ssize_t seat = 0; seat < seats; ++seat) {
        PyObject* row = PyTuple_GET_ITEM(value, seat);
        if (!PyTuple_CheckExact(row) || PyTuple_GET_SIZE(row) != kNumKinds) return false;
    }
    return true;
}

// A ready cache byte: 0 not ready, 1 ready, 255 not known (hupai.game.state.table.READY_UNKNOWN).
constexpr std::uint8_t kReadyUnknown = 255;

// (result, drawn), stealing `result`, after writing the seats' ready flags into the cache's bytes (`cache`, the
// flow's bytearray, checked before anything was written; written before any object is made, so no finalizer can
// run between the check and the write). drawn: the tile the next seat drew, -1 if the turn stopped before its draw.
PyObject* turn_result(std::uint8_t* cache, const signed char* ready, Py_ssize_t seats, PyObject* result, long drawn) {
    for (Py_ssize_t s = 0; s < seats; ++s) cache[s] = ready[s] < 0 ? kReadyUnknown : std::uint8_t(ready[s]);
    if (result == nullptr) return nullptr;
    PyObject* tile = PyLong_FromLong(drawn);
    PyObject* out = tile == nullptr ? nullptr : PyTuple_New(2);
    if (out == nullptr) {
        Py_XDECREF(tile);
        Py_DECREF(result);
        return nullptr;
    }
    PyTuple_SET_ITEM(out, 0, result);  // the new tuple returned takes the two references
    PyTuple_SET_ITEM(out, 1, tile);
    return out;
}

// A per-seat counter buffer: an exact bytearray of one byte per seat.
std::uint8_t* seat_counters(PyObject* value, Py_ssize_t seats) {
    if (!PyByteArray_CheckExact(value) || PyByteArray_GET_SIZE(value) != seats) return nullptr;
    return reinterpret_cast<std::uint8_t*>(PyByteArray_AS_STRING(value));
}

// A ValueError "<entry>: <what>": the turn entry points name themselves in their errors.
bool fail_in(const char* entry, const char* what) {
    PyErr_Format(PyExc_ValueError, "%s: %s", entry, what);
    return false;
}

// What every turn entry point reads of the turn pack (an exact tuple of kPackSize items, checked by the caller)
// and the ready cache, checked before anything is written: 2..4 seats, the two per-seat counters and the cache
// (distinct bytearrays of a byte a seat), the per-seat lists and discard tables, the wall.
struct TurnPack {
    PyObject* item[kPackSize] = {};
    Py_ssize_t seats = 0;
    std::uint8_t* draws = nullptr;
    std::uint8_t* discards_made = nullptr;
    std::uint8_t* cache = nullptr;
    long wall_size = 0;
};

bool read_pack(const char* entry, PyObject* tuple, PyObject* ready, TurnPack& out) {
    for (Py_ssize_t item = 0; item < kPackSize; ++item) out.item[item] = PyTuple_GET_ITEM(tuple, item);
    PyObject* const* pack = out.item;
    PyObject* hands = pack[kHands];
    if (!PyList_CheckExact(hands) || PyList_GET_SIZE(hands) < 2 || PyList_GET_SIZE(hands) > 4)
        return fail_in(entry, "hands must be a list of 2..4 seats");
    const Py_ssize_t seats = out.seats = PyList_GET_SIZE(hands);
    std::uint8_t* draws = out.draws = seat_counters(pack[kDraws], seats);
    std::uint8_t* made = out.discards_made = seat_counters(pack[kDiscardsMade], seats);
    std::uint8_t* cache = out.cache = seat_counters(ready, seats);  // the ready cache: one byte a seat
    if (draws == nullptr || made == nullptr || draws == made || cache == nullptr || cache == draws ||
        cache == made || !seat_list(pack[kPiles], seats) || !seat_list(pack[kMeldRecords], seats) ||
        !seat_list(pack[kPungs], seats) || !seat_list(pack[kLouhu], seats) ||
        !seat_tables(pack[kDiscardActions], seats) || !PyBytes_CheckExact(pack[kWallTiles]) ||
        PyBytes_GET_SIZE(pack[kWallTiles]) > kMaxWall)
        return fail_in(entry, "a per-seat list, buffer or table of the wrong shape");
    out.wall_size = long(PyBytes_GET_SIZE(pack[kWallTiles]));
    return true;
}

// Seat s's hand (a bytearray of 34 counts of at most 4, no other seat's buffer) copied into counts[s], its buffer
// kept in buffers[s]; its meld records (bytes of whole 6-byte records, at most 4); its ready byte (0, 1, or 255:
// -1, not known).
bool read_seat(const char* entry, const TurnPack& pack, Py_ssize_t s, std::uint8_t* (&buffers)[4],
               std::uint8_t (&counts)[4][kNumKinds], PyObject*& records, signed char& ready) {
    PyObject* hand = PyList_GET_ITEM(pack.item[kHands], s);
    if (!PyByteArray_CheckExact(hand) || PyByteArray_GET_SIZE(hand) != kNumKinds)
        return fail_in(entry, "a hand must be a bytearray of 34 counts");
    buffers[s] = reinterpret_cast<std::uint8_t*>(PyByteArray_AS_STRING(hand));
    for (Py_ssize_t other = 0; other < s; ++other)
        if (buffers[other] == buffers[s]) return fail_in(entry, "two seats share one hand");
    std::memcpy(counts[s], buffers[s], kNumKinds);
    for (int kind = 0; kind < kNumKinds; ++kind)
        if (counts[s][kind] > kMaxCopies) return fail_in(entry, "a count above 4");
    records = PyList_GET_ITEM(pack.item[kMeldRecords], s);
    if (!PyBytes_CheckExact(records) || PyBytes_GET_SIZE(records) % kMeldWidth != 0 ||
        PyBytes_GET_SIZE(records) > kMaxMelds * kMeldWidth)
        return fail_in(entry, "a seat's meld records must be bytes of at most 4 records of 6 bytes");
    const std::uint8_t known = pack.cache[s];
    if (known > 1 && known != kReadyUnknown) return fail_in(entry, "a ready byte must be 0, 1 or 255");
    ready = known == kReadyUnknown ? -1 : static_cast<signed char>(known);
    return true;
}

// The 漏胡 mask of `seat`, an exact int (a bool or a mask with bits past the every-tile bit is refused).
bool louhu_mask(const char* entry, const TurnPack& pack, long seat, long long& out) {
    PyObject* item = PyList_GET_ITEM(pack.item[kLouhu], seat);
    int overflow = 0;
    out = PyLong_CheckExact(item) ? PyLong_AsLongLongAndOverflow(item, &overflow) : -1;
    if (overflow != 0 || out < 0 || out > kLouhuMask) return fail_in(entry, "a 漏胡 mask must be an int in 0..2**35-1");
    return true;
}

// The discard pile buffer of `seat` (a bytearray of kPileCapacity bytes), or nullptr with the error set.
std::uint8_t* pile_of(const char* entry, const TurnPack& pack, long seat) {
    PyObject* pile = PyList_GET_ITEM(pack.item[kPiles], seat);
    if (!PyByteArray_CheckExact(pile) || PyByteArray_GET_SIZE(pile) != kPileCapacity) {
        fail_in(entry, "a discard pile must be a bytearray of 256 bytes");
        return nullptr;
    }
    return reinterpret_cast<std::uint8_t*>(PyByteArray_AS_STRING(pile));
}

// The turn entry points' result once the next seat has drawn (turn_result, the ready flags written): its discard
// actions (one per held kind, from the flow's table), or None when its turn may be more than discards: not
// `plain` by the rules' own test, four of a kind held, or a held kind of its exposed pungs (`pungs`, a kind mask):
// a kong possible is the rules' to list.
PyObject* next_turn(const TurnPack& turn, long next, const std::uint8_t* hand, bool plain, long pungs,
                    const signed char* ready, long next_tile) {
    plain = plain && std::memchr(hand, kMaxCopies, kNumKinds) == nullptr;
    for (auto rest = static_cast<std::uint64_t>(pungs); plain && rest != 0; rest &= rest - 1)
        plain = hand[__builtin_ctzll(rest)] == 0;
    if (!plain) {
        Py_INCREF(Py_None);
        return turn_result(turn.cache, ready, turn.seats, Py_None, next_tile);
    }
    PyObject* actions = PyTuple_GET_ITEM(turn.item[kDiscardActions], next);
    Py_ssize_t held = 0;
    for (int kind = 0; kind < kNumKinds; ++kind) held += hand[kind] != 0;
    PyObject* discards = PyTuple_New(held);
    if (discards != nullptr) {
        Py_ssize_t at = 0;
        for (int kind = 0; kind < kNumKinds; ++kind) {
            if (hand[kind] == 0) continue;
            PyObject* action = PyTuple_GET_ITEM(actions, kind);
            Py_INCREF(action);
            PyTuple_SET_ITEM(discards, at++, action);  // filling the new tuple returned
        }
    }
    return turn_result(turn.cache, ready, turn.seats, discards, next_tile);
}

// lean_turn(pack, ready, seat, tile, drawn, head, limit, chowers[, hook]) -> (int | tuple | None, int).
PyObject* lean_turn(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    if ((nargs != 8 && nargs != 9) || !PyTuple_CheckExact(args[0]) || PyTuple_GET_SIZE(args[0]) != kPackSize) {
        PyErr_SetString(PyExc_TypeError, "lean_turn expects the flow's turn pack and 7 or 8 more arguments");
        return nullptr;
    }
    TurnPack turn;
    if (!read_pack("lean_turn", args[0], args[1], turn)) return nullptr;
    PyObject* const* pack = turn.item;
    const Py_ssize_t seats = turn.seats;
    std::uint8_t* draws = turn.draws;
    std::uint8_t* discards_made = turn.discards_made;
    std::uint8_t* cache = turn.cache;
    const long wall_size = turn.wall_size;
    long seat = 0, tile = 0, drawn = 0, head = 0, limit = 0, forms = 0, chowers = 0;
    if (!small_int(args[2], 0, long(seats) - 1, seat) || !small_int(args[3], 0, kNumKinds - 1, tile) ||
        !small_int(args[4], -1, kNumKinds - 1, drawn) || !small_int(args[5], 0, wall_size, head) ||
        !small_int(args[6], -wall_size, wall_size, limit) || !small_int(pack[kForms], 1, kAllForms, forms) ||
        !small_int(args[7], 0, (1L << seats) - 1, chowers))
        return nullptr;
    // The rules' word on plain turns (Rules.plain_turn_mask, as lean_chain takes it), if given and not None:
    // (the seats whose turns are never plain, the wall's tail).
    long hooked = -1, tail = 0;
    if (nargs == 9 && args[8] != Py_None) {
        PyObject* hook = args[8];
        if (!PyTuple_CheckExact(hook) || PyTuple_GET_SIZE(hook) != 2) {
            fail("lean_turn: the rules' hook must be None or (seats, tail)");
            return nullptr;
        }
        if (!small_int(PyTuple_GET_ITEM(hook, 0), 0, (1L << seats) - 1, hooked) ||
            !small_int(PyTuple_GET_ITEM(hook, 1), 0, wall_size, tail))
            return nullptr;
    }
    // The wall tile the next seat would draw (-1: the live wall ends before it, the flow's own check follows).
    long next_tile = -1;
    if (head < limit) {
        next_tile = reinterpret_cast<const std::uint8_t*>(PyBytes_AS_STRING(pack[kWallTiles]))[head];
        if (next_tile >= kNumKinds) {
            fail("lean_turn: a wall tile of no kind");
            return nullptr;
        }
    }
    const long next = (seat + 1) % long(seats);

    // Read and check everything the turn reads, before anything is written.
    std::uint8_t counts[4][kNumKinds];
    std::uint8_t* buffers[4] = {};
    ClaimQuery query;
    query.num_players = int(seats);
    for (Py_ssize_t s = 0; s < seats; ++s) {
        PyObject* records = nullptr;
        if (!read_seat("lean_turn", turn, s, buffers, counts, records, query.ready[s])) return nullptr;
        query.hands[s] = counts[s];
        query.melds[s] = int(PyBytes_GET_SIZE(records) / kMeldWidth);
    }
    if (counts[seat][tile] == 0) {
        fail("lean_turn: the discarder does not hold the tile");
        return nullptr;
    }
    long pungs = 0;
    if (!small_int(PyList_GET_ITEM(pack[kPungs], next), 0, (1L << kNumKinds) - 1, pungs)) return nullptr;
    // The next seat's 漏胡 mask, an exact int (a bool or a mask with bits past the every-tile bit is refused).
    long long louhu = 0;
    if (!louhu_mask("lean_turn", turn, next, louhu)) return nullptr;
    // A 漏胡 block ends with its seat's draw (GD-11): the flow's own draw clears it, so this turn stops before.
    if (louhu != 0) next_tile = -1;
    if (next_tile >= 0 && counts[next][next_tile] >= kMaxCopies) {  // the draw that may follow, checked now
        fail("lean_turn: a fifth copy drawn");
        return nullptr;
    }
    if (discards_made[seat] == 0xFF || (next_tile >= 0 && draws[next] == 0xFF)) {
        fail("lean_turn: a counter at its limit");
        return nullptr;
    }
    std::uint8_t* pile = pile_of("lean_turn", turn, seat);
    if (pile == nullptr) return nullptr;

    // The discard, onto the seat's pile.
    --buffers[seat][tile];
    --counts[seat][tile];
    pile[discards_made[seat]++] = std::uint8_t(tile);  // (the count below 255, checked above: in the buffer)
    // The discarder's waiting hand is known at once (a 摸切 discard leaves a known one as it was): the next scan
    // would work it out anyway, and with every flag known the cache usually comes back unchanged.
    if (tile != drawn || query.ready[seat] < 0)
        query.ready[seat] = hand_ready(counts[seat], query.melds[seat], unsigned(forms)) ? 1 : 0;

    // The claim scan of every other seat (the readiness it learns is returned for the flow's cache).
    query.tile = int(tile);
    query.discarder = int(seat);
    query.forms = unsigned(forms);
    query.chow_seats = tile >= 27 ? 0U : unsigned(chowers);
    query.flags = kMeldsClaimable | kKongAllowed | kCheckWins;
    const std::uint32_t shapes = claim_shapes(query);
    if (shapes != 0 || next_tile < 0)
        return turn_result(cache, query.ready, seats, PyLong_FromUnsignedLong(shapes), -1);

    // The next seat's draw from the wall.
    ++buffers[next][next_tile];
    ++counts[next][next_tile];
    ++draws[next];

    // Is that turn only its discards? Not if the hand is complete (asked unless known not ready before the draw)
    // or a kong may be possible (four held, or a held kind of an exposed pung).
    const std::uint8_t* hand = counts[next];
    bool plain = !(query.ready[next] != 0 && hand_wins(hand, query.melds[next], unsigned(forms)));
    if (plain && hooked >= 0) {
        // With the rules' hook, also: the seat's bit not given, a tile left after the draw, and a hand that is not
        // ready (shanten above 0): lean_chain's test, so that the flow asks no turn_is_plain in Python.
        HandQuery own;
        own.counts = hand;
        own.melds = query.melds[next];
        own.forms = unsigned(forms);
        plain = (hooked >> next & 1) == 0 && head + 1 != tail && check_query(own, SizeRule::kComplete) == 0 &&
                hand_cost(own) > 1;
    }
    return next_turn(turn, next, hand, plain, pungs, query.ready, next_tile);
}

// Yunxiao's ready test of a seat's hand at rest (YunxiaoRules.ready with nothing drawn): a waiting size, and two
// golds held or some wait (YX-29, YX-32..35). Its waits (bit k: kind k) in `waits` when it was asked for them.
// False with `ok` false where the core's waits refuse the hand (the flow's own path then raises as before).
bool yunxiao_ready(const std::uint8_t* counts, int gold, const std::uint8_t* meld_kinds, int meld_count, int melds,
                   bool loose, std::uint64_t& waits, bool& ok) {
    waits = 0;
    int total = 0;
    for (int kind = 0; kind < kNumKinds; ++kind) total += counts[kind];
    if (total % 3 != 1) return false;
    KindCounts physical{};
    std::memcpy(physical.data(), counts, kNumKinds);
    try {
        waits = yunxiao::waits(yunxiao::make_hand(physical, gold, meld_kinds, meld_count, melds), loose);
    } catch (const InvalidHand&) {
        ok = false;
        return false;
    }
    return counts[gold] >= 2 || waits != 0;
}

// yunxiao_turn(pack, ready, seat, tile, drawn, head, limit, gold, you, loose, rob) -> (tuple | None, int) | None.
PyObject* yunxiao_turn(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 11 || !PyTuple_CheckExact(args[0]) || PyTuple_GET_SIZE(args[0]) != kPackSize) {
        PyErr_SetString(PyExc_TypeError, "yunxiao_turn expects the flow's turn pack and 10 more arguments");
        return nullptr;
    }
    TurnPack turn;
    if (!read_pack("yunxiao_turn", args[0], args[1], turn)) return nullptr;
    if (!seat_list(args[8], turn.seats)) {
        fail("yunxiao_turn: a per-seat list, buffer or table of the wrong shape");
        return nullptr;
    }
    PyObject* const* pack = turn.item;
    const Py_ssize_t seats = turn.seats;
    std::uint8_t* draws = turn.draws;
    std::uint8_t* discards_made = turn.discards_made;
    const long wall_size = turn.wall_size;
    long seat = 0, tile = 0, drawn = 0, head = 0, limit = 0, gold = 0, rob = 0;
    if (!small_int(args[2], 0, long(seats) - 1, seat) || !small_int(args[3], 0, kNumKinds - 1, tile) ||
        !small_int(args[4], -1, kNumKinds - 1, drawn) || !small_int(args[5], 0, wall_size, head) ||
        !small_int(args[6], -wall_size, wall_size, limit) || !small_int(args[7], 0, kNumKinds - 1, gold) ||
        !small_int(args[10], -1, long(seats) - 1, rob))
        return nullptr;
    if (!PyBool_Check(args[9])) {
        fail("yunxiao_turn: loose must be a bool");
        return nullptr;
    }
    const bool loose = args[9] == Py_True;
    const long next = (seat + 1) % long(seats);
    long level = 0, next_level = 0, pungs = 0;
    if (!small_int(PyList_GET_ITEM(args[8], seat), 0, 3, level) ||
        !small_int(PyList_GET_ITEM(args[8], next), 0, 3, next_level) ||
        !small_int(PyList_GET_ITEM(pack[kPungs], next), 0, (1L << kNumKinds) - 1, pungs))
        return nullptr;

    // Read and check everything the turn reads, before anything is written.
    std::uint8_t counts[4][kNumKinds];
    std::uint8_t* buffers[4] = {};
    std::uint8_t meld_kinds[4][4 * kMaxMelds];
    int meld_tiles[4] = {}, melds[4] = {};
    signed char ready[4] = {};
    for (Py_ssize_t s = 0; s < seats; ++s) {
        PyObject* records = nullptr;
        if (!read_seat("yunxiao_turn", turn, s, buffers, counts, records, ready[s])) return nullptr;
        // The melds' tiles as the rules give them to the core (hupai.hand.Meld.record: type code, first tile).
        melds[s] = int(PyBytes_GET_SIZE(records) / kMeldWidth);
        const auto* record = reinterpret_cast<const std::uint8_t*>(PyBytes_AS_STRING(records));
        for (int m = 0; m < melds[s]; ++m, record += kMeldWidth) {
            const int code = record[0], first = record[1];
            if (first >= kNumKinds || (code == 12 && (first >= 27 || first % 9 > 6)) ||
                (code != 12 && code != 25 && code != 20)) {
                fail("yunxiao_turn: a meld record of no meld");
                return nullptr;
            }
            for (int t = 0; t < (code == 20 ? 4 : 3); ++t)
                meld_kinds[s][meld_tiles[s]++] = std::uint8_t(code == 12 ? first + t : first);
        }
    }
    if (counts[seat][tile] == 0) {
        fail("yunxiao_turn: the discarder does not hold the tile");
        return nullptr;
    }
    long long louhu = 0;
    if (!louhu_mask("yunxiao_turn", turn, next, louhu)) return nullptr;
    std::uint8_t* pile = pile_of("yunxiao_turn", turn, seat);
    if (pile == nullptr) return nullptr;
    --counts[seat][tile];  // (the local copy: the hand the rules' hooks would see after the discard)

    // Anything but the quiet discard leaves by the flow's own path, nothing written: a 漏胡 block the draw ends, the
    // wall's end (YX-12, YX-23), a 游 level that moves (YX-26, YunxiaoRules.on_discard: asked where a gold is held
    // after the discard or a level is held; in 游 shape the level is 1 after a discard of no gold, else 2, or 3
    // after 2), a declaration the next seat may make before its draw (YunxiaoRules.pre_draw_actions: 游金 at a
    // level, YX-27; below, 抢金 at a first draw, YX-30). Leaving is always safe: the flow's path asks the hooks.
    if (louhu != 0 || head >= limit || next_level != 0) Py_RETURN_NONE;
    if (counts[seat][gold] != 0 || level != 0) {
        bool shape = false;
        if (counts[seat][gold] != 0) {
            KindCounts physical{};
            std::memcpy(physical.data(), counts[seat], kNumKinds);
            try {
                shape = yunxiao::you_shape(
                    yunxiao::make_hand(physical, int(gold), meld_kinds[seat], meld_tiles[seat], melds[seat]));
            } catch (const InvalidHand&) {
                Py_RETURN_NONE;
            }
        }
        const long moved = !shape ? 0 : tile != gold ? 1 : level >= 2 ? 3 : 2;
        if (moved != level) Py_RETURN_NONE;
    }
    // 抢金 (YX-30): the next seat's first draw while the gold may be robbed (`rob`: the dealer, who never may; -1
    // once a call is made or the indicator taken), if the gold is a wait of its hand before that draw. (Whether its
    // 游 state allows it, YX-28, is the hook's to say: leaving costs only time.)
    if (draws[next] == 0 && rob >= 0 && next != rob && ready[next] != 0) {
        std::uint64_t before = 0;
        bool fine = true;
        yunxiao_ready(counts[next], int(gold), meld_kinds[next], meld_tiles[next], melds[next], loose, before, fine);
        if (!fine || (before >> gold & 1)) Py_RETURN_NONE;
    }
    const long next_tile = reinterpret_cast<const std::uint8_t*>(PyBytes_AS_STRING(pack[kWallTiles]))[head];
    if (next_tile >= kNumKinds || counts[next][next_tile] >= kMaxCopies) {
        fail("yunxiao_turn: a wall tile of no kind, or a fifth copy drawn");
        return nullptr;
    }
    if (discards_made[seat] == 0xFF || draws[next] == 0xFF) {
        fail("yunxiao_turn: a counter at its limit");
        return nullptr;
    }
    // The ready cache as the claim window fills it: the discarder's waiting hand (a 摸切 discard leaves a known one
    // as it was) and every seat not known; then the claims (YunxiaoRules.claim_options): a ready seat's win on a
    // wait that is no gold (YX-11, YX-14), a pung or kong of two held, the 下家's chow (白板 as the gold's face,
    // YX-7). Any claim leaves by the flow's path. Another seat known ready has its waits worked out here too (the
    // rules' memo of them, YunxiaoRules._wait_bits, is the flow's path's): a ready hand that the discard does not
    // complete lets the turn go on (a gold discard completes nobody's, YX-11).
    std::uint64_t waits[4] = {};
    bool ok = true;
    for (Py_ssize_t s = 0; s < seats; ++s) {
        if (ready[s] == 1 && s != seat && tile != gold) {
            yunxiao_ready(counts[s], int(gold), meld_kinds[s], meld_tiles[s], melds[s], loose, waits[s], ok);
            if (!ok) Py_RETURN_NONE;
            continue;
        }
        if (ready[s] >= 0 && !(s == seat && tile != drawn)) continue;
        ready[s] = yunxiao_ready(counts[s], int(gold), meld_kinds[s], meld_tiles[s], melds[s], loose, waits[s], ok)
                       ? 1 : 0;
        if (!ok) Py_RETURN_NONE;
    }
    bool claim = false;
    if (tile != gold) {
        const long face = tile == yunxiao::kWhite && gold != yunxiao::kWhite ? gold : tile;
        for (Py_ssize_t step = 1; step < seats && !claim; ++step) {
            const Py_ssize_t s = (seat + step) % seats;
            const std::uint8_t* hand = counts[s];
            claim = hand[tile] >= 2 || (ready[s] == 1 && (waits[s] >> tile & 1));  // (every ready seat's waits known)
            if (s == next && face < 27) {
                const long low = face - face % 9;
                for (long start = std::max(low, face - 2); start <= std::min(face, low + 6); ++start) {
                    bool both = true;
                    for (long kind = start; kind < start + 3; ++kind)
                        if (kind != face && !hand[kind == gold ? yunxiao::kWhite : kind]) both = false;
                    claim = claim || both;
                }
            }
        }
    }

    // The discard onto the seat's pile and the ready cache (every seat's now known).
    --buffers[seat][tile];
    pile[discards_made[seat]++] = std::uint8_t(tile);
    if (claim) {
        // Someone may claim: the window is the flow's (YunxiaoRules.claim_options), which reads the cache written
        // here; the discard moved no 游 level (left above otherwise), so on_discard has nothing to do.
        turn_result(turn.cache, ready, seats, nullptr, 0);
        return PyLong_FromLong(0);
    }
    // Nobody may claim: the next seat's draw.
    ++buffers[next][next_tile];
    ++counts[next][next_tile];
    ++draws[next];
    // Is that turn only its discards (YunxiaoRules.turn_is_plain: known not ready before the draw)? Not if a kong
    // may be possible (four held, or a held kind of an exposed pung): the flow asks the rules then.
    const std::uint8_t* hand = counts[next];
    return next_turn(turn, next, hand, ready[next] == 0, pungs, ready, next_tile);
}

// discard_tile(pack, seat, tile) -> None: the general path's discard (MahjongFlow._discard), the bytes the lean
// turn's discard writes: one count off the seat's hand, the tile onto its pile at its count of discards made, that
// count + 1. Three byte writes that cost the interpreter three subscripted stores (a bytearray's, about 150
// instructions each) in Python. Everything is checked before a byte changes.
PyObject* discard_tile(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 3 || !PyTuple_CheckExact(args[0]) || PyTuple_GET_SIZE(args[0]) != kPackSize) {
        PyErr_SetString(PyExc_TypeError, "discard_tile expects the flow's turn pack, a seat and a tile");
        return nullptr;
    }
    PyObject* pack = args[0];
    PyObject* hands = PyTuple_GET_ITEM(pack, kHands);
    if (!PyList_CheckExact(hands) || PyList_GET_SIZE(hands) < 2 || PyList_GET_SIZE(hands) > 4) {
        fail("discard_tile: hands must be a list of 2..4 seats");
        return nullptr;
    }
    const Py_ssize_t seats = PyList_GET_SIZE(hands);
    long seat = 0, tile = 0;
    if (!small_int(args[1], 0, long(seats) - 1, seat) || !small_int(args[2], 0, kNumKinds - 1, tile)) return nullptr;
    std::uint8_t* made = seat_counters(PyTuple_GET_ITEM(pack, kDiscardsMade), seats);
    PyObject* piles = PyTuple_GET_ITEM(pack, kPiles);
    PyObject* hand = PyList_GET_ITEM(hands, seat);
    if (made == nullptr || !seat_list(piles, seats) || !PyByteArray_CheckExact(hand) ||
        PyByteArray_GET_SIZE(hand) != kNumKinds) {
        fail("discard_tile: a per-seat list, buffer or hand of the wrong shape");
        return nullptr;
    }
    PyObject* pile = PyList_GET_ITEM(piles, seat);
    if (!PyByteArray_CheckExact(pile) || PyByteArray_GET_SIZE(pile) != kPileCapacity) {
        fail("discard_tile: a discard pile must be a bytearray of 256 bytes");
        return nullptr;
    }
    auto* counts = reinterpret_cast<std::uint8_t*>(PyByteArray_AS_STRING(hand));
    if (counts[tile] == 0 || counts[tile] > kMaxCopies) {
        fail("discard_tile: the discarder does not hold the tile");
        return nullptr;
    }
    if (made[seat] == 0xFF) {
        fail("discard_tile: a counter at its limit");
        return nullptr;
    }
    --counts[tile];
    reinterpret_cast<std::uint8_t*>(PyByteArray_AS_STRING(pile))[made[seat]++] = std::uint8_t(tile);
    Py_RETURN_NONE;
}

// pile_tuples(piles, made) -> tuple of tuples: each seat's discard pile (the first made[seat] bytes of its buffer,
// less the claimed ones, marked kClaimed) as a tuple of ints, in one crossing, for the observer's copy of the piles:
// a Python loop over the buffers (a slice and a tuple of its bytes per seat) costs twice what the observer paid for
// lists. Reads only; makes nothing but its return value.
PyObject* pile_tuples(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "pile_tuples expects the piles and the discards made");
        return nullptr;
    }
    PyObject* piles = args[0];
    PyObject* made = args[1];
    if (!PyList_CheckExact(piles) || !PyByteArray_CheckExact(made) ||
        PyByteArray_GET_SIZE(made) != PyList_GET_SIZE(piles) || PyList_GET_SIZE(piles) > 4) {
        PyErr_SetString(PyExc_ValueError, "pile_tuples: a list of at most 4 piles and a bytearray of their counts");
        return nullptr;
    }
    const Py_ssize_t seats = PyList_GET_SIZE(piles);
    // Copied first (the claimed tiles left out): making the tuples may run the garbage collector, and with it any
    // finalizer.
    std::uint8_t size[4] = {};
    std::uint8_t tiles[4][kPileCapacity];
    const auto* counts = reinterpret_cast<const std::uint8_t*>(PyByteArray_AS_STRING(made));
    for (Py_ssize_t s = 0; s < seats; ++s) {
        PyObject* pile = PyList_GET_ITEM(piles, s);
        if (!PyByteArray_CheckExact(pile) || PyByteArray_GET_SIZE(pile) < Py_ssize_t(counts[s])) {
            PyErr_SetString(PyExc_ValueError, "pile_tuples: a pile must be a bytearray holding its discards");
            return nullptr;
        }
        const auto* from = reinterpret_cast<const std::uint8_t*>(PyByteArray_AS_STRING(pile));
        std::uint8_t kept = 0;
        for (int at = 0; at < counts[s]; ++at)
            if ((from[at] & kClaimed) == 0) tiles[s][kept++] = from[at];
        size[s] = kept;
    }
    PyObject* out = PyTuple_New(seats);
    if (out == nullptr) return nullptr;
    for (Py_ssize_t s = 0; s < seats; ++s) {
        PyObject* row = PyTuple_New(size[s]);
        if (row == nullptr) {
            Py_DECREF(out);
            return nullptr;
        }
        PyTuple_SET_ITEM(out, s, row);  // filling the new tuple returned (a failure below frees both)
        for (Py_ssize_t at = 0; at < Py_ssize_t(size[s]); ++at) {
            PyObject* tile = PyLong_FromLong(long(tiles[s][at]));  // a small int: shared
            if (tile == nullptr) {
                Py_DECREF(out);
                return nullptr;
            }
            PyTuple_SET_ITEM(row, at, tile);
        }
    }
    return out;
}

PyMethodDef kTurnMethods[] = {
    {"lean_turn", as_method(lean_turn), METH_FASTCALL,
     "lean_turn($module, pack, ready, seat, tile, drawn, head, limit, chowers, hook=None, /)\n--\n\n"
     "The mahjong flow's lean turn (MahjongFlow._lean_turn). `pack`: the flow's per-hand tuple (hands: per seat\n"
     "a bytearray of 34 counts; draws, discards_made: bytearrays, one count per seat; meld records: per seat\n"
     "bytes of 6-byte records, their count read; pungs: per seat the mask of its exposed pungs' kinds; louhu: per seat the 漏胡\n"
     "mask, an int (bits 0..33 kinds, bit 34 every tile); discard actions: per seat a tuple of 34 items, returned, never read; the wall's\n"
     "tiles, bytes of at most 136 kinds; the winning forms; piles: per seat a bytearray of 256 bytes, its discards in\n"
     "order, a claimed one marked 0x80). `ready`: the engine's ready cache, a bytearray of a byte per seat (0\n"
     "not ready, 1 ready, 255 not known). `seat` discards `tile` (`drawn`: the tile it drew, -1 if none): written at discards_made[seat] in\n"
     "its pile, discards_made[seat] + 1; and every other seat's claims are scanned (claim_scan's bits,\n"
     "`chowers` as its chow_seats). If nobody may claim, `head` < `limit` (the wall's head and the end of its\n"
     "live part) and the next seat has no 漏胡 block, that seat draws the wall's tile at `head` (draws[next] +\n"
     "1). The ready cache gets what the scan learned and the discarder's own waiting hand, worked out now.\n"
     "Only those bytes are written, after every argument is checked. Returns (result, drawn): result the shapes (an int) if\n"
     "some seat may claim, 0 if nobody may but no draw\n"
     "was made, and after a draw the next turn's discards (a tuple of its discard actions) if that turn is only\n"
     "its discards, else None; drawn the tile drawn, -1 if none was. `hook`: None, or (seats, tail) for rules\n"
     "with a turn hook (as lean_chain's): the next turn is only its discards also only if its seat's bit is not in\n"
     "`seats`, the wall's head after the draw is not `tail` and its hand is not ready (shanten above 0)."},
    {"yunxiao_turn", as_method(yunxiao_turn), METH_FASTCALL,
     "yunxiao_turn($module, pack, ready, seat, tile, drawn, head, limit, gold, you, loose, rob, /)\n--\n\n"
     "Yunxiao's quiet discard in one crossing (MahjongFlow._gold_discard, claim window \"eligible\"): `seat`\n"
     "discards `tile` (`drawn`: the tile it drew, -1 if none), nobody may claim it, and the next seat draws the\n"
     "wall's tile at `head`. `pack` and `ready` as lean_turn's; `limit`: the end of the wall for a normal draw\n"
     "(YunxiaoRules.can_draw); `gold`: the gold kind; `you`: per seat its 游 level (a list of ints); `loose`: the\n"
     "buda_loose option; `rob`: the dealer, or -1 when nobody may rob the gold (a call made, the indicator taken).\n"
     "Returns None, nothing written, where the flow's hooks have more to do than claims: a 游 level that moves,\n"
     "a 漏胡 block, the wall's end, a declaration the next seat may make before its draw (a 游 level, 抢金 on a\n"
     "first draw with the gold among its waits). Where some seat may claim it writes the discard (hand, pile,\n"
     "discards_made) and every seat's ready byte and returns 0: the claim window is the flow's. Else it\n"
     "writes the discard (hand, pile, discards_made), the ready cache (every seat's, as the claim window fills it)\n"
     "and the draw (hand, draws), after every argument is checked, and returns (result, drawn): result the next\n"
     "turn's discards (a tuple of its discard actions) if that turn is only its discards, else None."},
    {"discard_tile", as_method(discard_tile), METH_FASTCALL,
     "discard_tile($module, pack, seat, tile, /)\n--\n\n"
     "The general path's discard (MahjongFlow._discard) in the lean turn's pack: one count of `tile` off the\n"
     "seat's hand, the tile written in its pile at discards_made[seat], that count + 1. Only those bytes are\n"
     "written, after every argument is checked."},
    {"pile_tuples", as_method(pile_tuples), METH_FASTCALL,
     "pile_tuples($module, piles, made, /)\n--\n\n"
     "Each seat's discard pile as a tuple of ints: the first made[seat] bytes of piles[seat] less those marked\n"
     "claimed (0x80) (piles: a list of at most 4 bytearrays; made: a bytearray, a byte per seat). Reads only."},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace

void register_turn(py::module_& m) { add_functions(m, kTurnMethods); }

}  // namespace hupai::binding
