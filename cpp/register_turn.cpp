// The mahjong flow's lean turn in one crossing (hupai.game.mahjong.MahjongFlow._lean_turn): a plain discard, the
// claim scan of every other seat, and when nobody can claim and the wall goes on, the next seat's draw and the
// question whether its turn is only its discards. The flow still decides everything around it in Python (whether
// the path applies, claim windows, the wall end, the rules' turn hook); this does the table's bookkeeping of that
// path on the engine's own plain containers (lists, bytearrays, sets, ints), which it is given once per hand as a
// tuple. Unlike the scans of register_engine.cpp it writes to them: everything is read and checked first, so a
// malformed argument (an engine bug, never a player's action) raises before anything changes.
#include <Python.h>

#include <cstdint>
#include <cstring>

#include "claims.hpp"
#include "pyargs.hpp"
#include "register.hpp"
#include "tiles.hpp"

namespace py = pybind11;

namespace hupai::binding {

namespace {

// The per-hand tuple's items (MahjongFlow._turn_pack).
enum PackItem : Py_ssize_t {
    kHands,           // list of bytearray(34) per seat
    kMelds,           // list of lists of melds per seat (only the lengths are read)
    kDiscards,        // list of lists of discarded kinds per seat
    kDiscardsMade,    // list of ints per seat
    kDraws,           // list of ints per seat
    kEvents,          // the flow's event list
    kMissed,          // list of sets per seat (漏胡 blocks)
    kMissedAll,       // list of bools per seat
    kWallTiles,       // list of ints: the wall
    kPungs,           // list of ints per seat: its exposed pungs' kinds as a 34-bit mask
    kDrawEvents,      // tuple per seat of 34 raw draw events
    kDiscardActions,  // tuple per seat of 34 prebuilt discard actions
    kPackSize,
};

bool fail(const char* message) {
    PyErr_SetString(PyExc_ValueError, message);
    return false;
}

// A small exact int in low..high (the engine's own ints; a bool is refused).
bool small_int(PyObject* value, long low, long high, long& out) {
    if (!PyLong_CheckExact(value)) return fail("lean_turn: an int was expected");
    const long parsed = PyLong_AsLong(value);
    if (parsed == -1 && PyErr_Occurred()) return false;
    if (parsed < low || parsed > high) return fail("lean_turn: an int out of range");
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

// A list item `index` (an exact int, checked by the caller) plus one, written back.
bool increment(PyObject* list, Py_ssize_t index) {
    const long value = PyLong_AsLong(PyList_GET_ITEM(list, index));
    if (value == -1 && PyErr_Occurred()) return false;
    PyObject* bumped = PyLong_FromLong(value + 1);
    if (bumped == nullptr) return false;
    PyList_SetItem(list, index, bumped);  // steals the new reference, releases the old item
    return true;
}

// lean_turn(pack, action, seat, tile, drawn, head, limit, forms, chowers, ready) -> int | tuple | None.
PyObject* lean_turn(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 10 || !PyTuple_CheckExact(args[0]) || PyTuple_GET_SIZE(args[0]) != kPackSize) {
        PyErr_SetString(PyExc_TypeError, "lean_turn expects the flow's turn pack and 9 more arguments");
        return nullptr;
    }
    PyObject* pack[kPackSize];
    for (Py_ssize_t item = 0; item < kPackSize; ++item) pack[item] = PyTuple_GET_ITEM(args[0], item);
    PyObject* hands_list = pack[kHands];
    if (!PyList_CheckExact(hands_list) || PyList_GET_SIZE(hands_list) < 2 || PyList_GET_SIZE(hands_list) > 4) {
        fail("lean_turn: hands must be a list of 2..4 seats");
        return nullptr;
    }
    const Py_ssize_t seats = PyList_GET_SIZE(hands_list);
    PyObject* ready_list = args[9];
    for (const PackItem item : {kMelds, kDiscards, kDiscardsMade, kDraws, kMissed, kMissedAll, kPungs}) {
        if (!seat_list(pack[item], seats)) {
            fail("lean_turn: a per-seat list of the wrong shape");
            return nullptr;
        }
    }
    if (!seat_list(ready_list, seats) || !PyList_CheckExact(pack[kEvents]) || !PyList_CheckExact(pack[kWallTiles]) ||
        !seat_tables(pack[kDrawEvents], seats) || !seat_tables(pack[kDiscardActions], seats)) {
        fail("lean_turn: a list or table of the wrong shape");
        return nullptr;
    }
    long seat = 0, tile = 0, drawn = 0, head = 0, limit = 0, forms = 0, chowers = 0;
    const long wall_size = long(PyList_GET_SIZE(pack[kWallTiles]));
    if (!small_int(args[2], 0, long(seats) - 1, seat) || !small_int(args[3], 0, kNumKinds - 1, tile) ||
        !small_int(args[4], -1, kNumKinds - 1, drawn) || !small_int(args[5], 0, wall_size, head) ||
        !small_int(args[6], -1024, wall_size, limit) || !small_int(args[7], 1, kAllForms, forms) ||
        !small_int(args[8], 0, 15, chowers))
        return nullptr;
    const long next = (seat + 1) % long(seats);

    // Read and check everything the path may touch, before anything changes.
    std::uint8_t counts[4][kNumKinds];
    std::uint8_t* buffers[4] = {};
    ClaimQuery query;
    query.num_players = int(seats);
    for (Py_ssize_t s = 0; s < seats; ++s) {
        PyObject* hand = PyList_GET_ITEM(hands_list, s);
        if (!PyByteArray_CheckExact(hand) || PyByteArray_GET_SIZE(hand) != kNumKinds) {
            fail("lean_turn: a hand must be a bytearray of 34 counts");
            return nullptr;
        }
        buffers[s] = reinterpret_cast<std::uint8_t*>(PyByteArray_AS_STRING(hand));
        std::memcpy(counts[s], buffers[s], kNumKinds);
        for (int kind = 0; kind < kNumKinds; ++kind)
            if (counts[s][kind] > kMaxCopies) {
                fail("lean_turn: a count above 4");
                return nullptr;
            }
        query.hands[s] = counts[s];
        PyObject* melds = PyList_GET_ITEM(pack[kMelds], s);
        if (!PyList_CheckExact(melds) || PyList_GET_SIZE(melds) > kMaxMelds) {
            fail("lean_turn: a seat's melds must be a list of at most 4");
            return nullptr;
        }
        query.melds[s] = int(PyList_GET_SIZE(melds));
        PyObject* ready = PyList_GET_ITEM(ready_list, s);
        if (ready != Py_None && ready != Py_True && ready != Py_False) {
            fail("lean_turn: a ready flag must be None, True or False");
            return nullptr;
        }
        query.ready[s] = ready == Py_None ? -1 : ready == Py_True ? 1 : 0;
    }
    if (counts[seat][tile] == 0) {
        fail("lean_turn: the discarder does not hold the tile");
        return nullptr;
    }
    PyObject* seat_discards = PyList_GET_ITEM(pack[kDiscards], seat);
    PyObject* missed = PyList_GET_ITEM(pack[kMissed], next);
    long pungs = 0;
    if (!PyList_CheckExact(seat_discards) || !PySet_CheckExact(missed) ||
        !PyLong_CheckExact(PyList_GET_ITEM(pack[kDiscardsMade], seat)) ||
        !PyLong_CheckExact(PyList_GET_ITEM(pack[kDraws], next)) ||
        !small_int(PyList_GET_ITEM(pack[kPungs], next), 0, (1L << kNumKinds) - 1, pungs)) {
        if (!PyErr_Occurred()) fail("lean_turn: a seat's discards, counters or 漏胡 set of the wrong type");
        return nullptr;
    }
    long drawn_tile = -1;
    if (head < limit) {  // the draw follows unless a claim is possible: its tile is checked now
        if (head >= wall_size) {
            fail("lean_turn: no wall tile to draw");
            return nullptr;
        }
        if (!small_int(PyList_GET_ITEM(pack[kWallTiles], head), 0, kNumKinds - 1, drawn_tile)) return nullptr;
        if (counts[next][drawn_tile] >= kMaxCopies) {
            fail("lean_turn: a fifth copy drawn");
            return nullptr;
        }
    }

    // The discard.
    PyObject* tile_object = PyLong_FromLong(tile);
    if (tile_object == nullptr) return nullptr;
    const int appended = PyList_Append(seat_discards, tile_object);
    Py_DECREF(tile_object);
    if (appended < 0 || !increment(pack[kDiscardsMade], seat) || PyList_Append(pack[kEvents], args[1]) < 0)
        return nullptr;
    --buffers[seat][tile];
    --counts[seat][tile];
    if (tile != drawn) {  // a 摸切 discard leaves the waiting hand as it was
        query.ready[seat] = -1;
        Py_INCREF(Py_None);
        PyList_SetItem(ready_list, seat, Py_None);
    }

    // The claim scan of every other seat, its readiness learned kept in the engine's cache.
    query.tile = int(tile);
    query.discarder = int(seat);
    query.forms = unsigned(forms);
    query.chow_seats = tile >= 27 ? 0U : unsigned(chowers);
    query.flags = kMeldsClaimable | kKongAllowed | kCheckWins;
    signed char before[4];
    std::memcpy(before, query.ready, sizeof before);
    const std::uint32_t shapes = claim_shapes(query);
    for (Py_ssize_t s = 0; s < seats; ++s) {
        if (before[s] < 0 && query.ready[s] >= 0) {
            PyObject* value = query.ready[s] ? Py_True : Py_False;
            Py_INCREF(value);
            PyList_SetItem(ready_list, s, value);
        }
    }
    if (shapes != 0 || head >= limit) return PyLong_FromUnsignedLong(shapes);  // a window, or the wall's end

    // The next seat's draw from the wall.
    ++buffers[next][drawn_tile];
    ++counts[next][drawn_tile];
    if (!increment(pack[kDraws], next)) return nullptr;
    if (PySet_GET_SIZE(missed) != 0 && PySet_Clear(missed) < 0) return nullptr;  // a draw ends a 漏胡 block
    if (PyList_GET_ITEM(pack[kMissedAll], next) != Py_False) {
        Py_INCREF(Py_False);
        PyList_SetItem(pack[kMissedAll], next, Py_False);
    }
    PyObject* event = PyTuple_GET_ITEM(PyTuple_GET_ITEM(pack[kDrawEvents], next), drawn_tile);
    if (PyList_Append(pack[kEvents], event) < 0) return nullptr;

    // Is that turn only its discards? Not if the hand is complete (asked unless known not ready before the draw)
    // or a kong may be possible (four held, or a held kind of an exposed pung).
    const std::uint8_t* hand = counts[next];
    if (query.ready[next] != 0 && hand_wins(hand, query.melds[next], unsigned(forms))) Py_RETURN_NONE;
    if (std::memchr(hand, kMaxCopies, kNumKinds) != nullptr) Py_RETURN_NONE;
    for (auto rest = static_cast<std::uint64_t>(pungs); rest != 0; rest &= rest - 1)
        if (hand[__builtin_ctzll(rest)] > 0) Py_RETURN_NONE;
    PyObject* actions = PyTuple_GET_ITEM(pack[kDiscardActions], next);
    Py_ssize_t held = 0;
    for (int kind = 0; kind < kNumKinds; ++kind) held += hand[kind] != 0;
    PyObject* out = PyTuple_New(held);
    if (out == nullptr) return nullptr;
    Py_ssize_t at = 0;
    for (int kind = 0; kind < kNumKinds; ++kind) {
        if (hand[kind] == 0) continue;
        PyObject* action = PyTuple_GET_ITEM(actions, kind);
        Py_INCREF(action);
        PyTuple_SET_ITEM(out, at++, action);
    }
    return out;
}

PyMethodDef kTurnMethods[] = {
    {"lean_turn", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(lean_turn)), METH_FASTCALL,
     "lean_turn($module, pack, action, seat, tile, drawn, head, limit, forms, chowers, ready, /)\n--\n\n"
     "The mahjong flow's lean turn (MahjongFlow._lean_turn) on its plain containers. `pack`: (hands, melds,\n"
     "discards, discards_made, draws, events, missed, missed_all, wall tiles, pungs, draw events, discard\n"
     "actions), the flow's per-hand tuple; `ready` the engine's ready cache. `seat` discards `tile` (`action`\n"
     "is appended as its event; `drawn`: the tile it drew, -1 if none); every other seat's claims are scanned\n"
     "(claim_scan's bits; chowers as its chow_seats; readiness learned is stored in `ready`). Returns the shapes\n"
     "(an int) if some seat may claim, or 0 if head >= limit (the wall's end): the flow opens the window or ends\n"
     "the hand. Otherwise the next seat draws wall[head] (hand, draws, its 漏胡 block cleared, the draw event)\n"
     "and the result is its turn's discards (a tuple of discard actions) if that turn is only its discards,\n"
     "else None. The flow writes the Table's own fields (head, drawn, turn seat ...) itself."},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace

void register_turn(py::module_& m) { add_functions(m, kTurnMethods); }

}  // namespace hupai::binding
