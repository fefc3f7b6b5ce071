// The table engine's scans (hupai.rules.base.Rules.claim_options, hupai.game.Game.legal_actions): raw
// METH_FASTCALL functions over plain data, because they run after every discard and on every turn and pybind11's
// argument machinery would cost more than the scans. They read buffers and ints only, hold a strong reference to
// every item they read, and write nothing but their result. The logic is plain C++ (claims.hpp).
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

// The engine's own helpers raise ValueError for arguments the engine never passes (a bug, not a bad hand).
bool read_small(PyObject* value, const char* name, long long low, long long high, long long& out) {
    return read_int(value, name, low, high, out, PyExc_ValueError);
}

// A meld record's width (hupai.hand.MELD_WIDTH).
constexpr Py_ssize_t kMeldWidth = 6;

// A seat's count of exposed melds: its meld records (exact bytes, hupai.game.state.table's meld_records: the
// engine's own, whose size over the width is the count), an int, or a list or tuple whose length it is (only the
// length is read, never a meld).
bool read_meld_count(PyObject* value, long long& out) {
    if (PyBytes_CheckExact(value)) {
        const Py_ssize_t size = PyBytes_GET_SIZE(value);
        out = size / kMeldWidth;
        if (size % kMeldWidth == 0 && out <= kMaxMelds) return true;
        PyErr_Format(PyExc_ValueError, "meld records must be at most %d records of %zd bytes, got %zd bytes",
                     kMaxMelds, kMeldWidth, size);
        return false;
    }
    if (PyList_CheckExact(value) || PyTuple_CheckExact(value)) {
        out = Py_SIZE(value);
        if (out <= kMaxMelds) return true;
        PyErr_Format(PyExc_ValueError, "a seat has at most %d melds, got %lld", kMaxMelds, out);
        return false;
    }
    return read_small(value, "melds", 0, kMaxMelds, out);
}

// A ready cache byte that means not known (hupai.game.state.table.READY_UNKNOWN).
constexpr std::uint8_t kReadyUnknown = 255;

// A seat's ready flag: -1 (or None) unknown, 0 (or False) not ready, 1 (or True) ready.
bool read_ready(PyObject* value, signed char& out) {
    if (value == Py_None) {
        out = -1;
        return true;
    }
    long long parsed = 0;
    if (PyBool_Check(value)) {
        parsed = value == Py_True;
    } else if (!read_small(value, "ready", -1, 1, parsed)) {
        return false;
    }
    out = static_cast<signed char>(parsed);
    return true;
}

// Item `index` of a sequence as a new (owned) reference, or null with ValueError naming `what`. An exact list
// or tuple is indexed directly (the engine's own lists); the reference is taken before anything else runs.
PyObject* owned_item(PyObject* sequence, Py_ssize_t index, const char* what) {
    if ((PyList_CheckExact(sequence) || PyTuple_CheckExact(sequence)) && index < Py_SIZE(sequence)) {
        PyObject* item = PyList_CheckExact(sequence) ? PyList_GET_ITEM(sequence, index)
                                                      : PyTuple_GET_ITEM(sequence, index);
        Py_INCREF(item);
        return item;
    }
    PyObject* item = PySequence_GetItem(sequence, index);
    if (item == nullptr) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "claim_scan: %s must have one entry per seat", what);
    }
    return item;
}

// 34 counts of one seat (copied: the scan reads only the copy), else ValueError.
bool read_hand(PyObject* hand, std::uint8_t* out, const char* scan) {
    const Read read = read_counts(hand, out);
    if (read == Read::kDone) return true;
    if (read == Read::kFailed) PyErr_Clear();
    PyErr_Format(PyExc_ValueError, "%s: a hand must be a buffer of 34 counts (0..4), got %s", scan,
                 Py_TYPE(hand)->tp_name);
    return false;
}

// claim_scan(hands, melds, ready, tile, discarder, forms, chow_seats, flags) -> (shapes, ready or None).
PyObject* claim_scan(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 8) {
        PyErr_Format(PyExc_TypeError, "claim_scan expects 8 arguments, got %zd", nargs);
        return nullptr;
    }
    const Py_ssize_t seats = PyList_CheckExact(args[0]) || PyTuple_CheckExact(args[0]) ? Py_SIZE(args[0])
                             : PySequence_Check(args[0])                            ? PySequence_Size(args[0])
                                                                                    : -1;
    if (seats < 2 || seats > 4) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "claim_scan: hands must be a sequence of 2..4 seats' counts");
        return nullptr;
    }
    std::uint8_t hands[4][kNumKinds];
    ClaimQuery query;
    query.num_players = int(seats);
    // The engine's ready cache is a bytearray (a byte per seat: 0, 1, 255 not known), written in place; any other
    // sequence of flags is read only, the learned flags returned.
    const bool cache = PyByteArray_CheckExact(args[2]);
    for (int seat = 0; seat < query.num_players; ++seat) {
        PyObject* hand = owned_item(args[0], seat, "hands");
        if (hand == nullptr) return nullptr;
        const bool read = read_hand(hand, hands[seat], "claim_scan");
        Py_DECREF(hand);
        if (!read) return nullptr;
        query.hands[seat] = hands[seat];
        PyObject* melds = owned_item(args[1], seat, "melds");
        if (melds == nullptr) return nullptr;
        long long count = 0;
        const bool counted = read_meld_count(melds, count);
        Py_DECREF(melds);
        if (!counted) return nullptr;
        query.melds[seat] = int(count);
        if (cache) continue;  // the bytes are read below, once nothing else can run
        PyObject* ready = owned_item(args[2], seat, "ready");
        if (ready == nullptr) return nullptr;
        const bool flagged = read_ready(ready, query.ready[seat]);
        Py_DECREF(ready);
        if (!flagged) return nullptr;
    }
    long long tile = 0, discarder = 0, forms = 0, chow_seats = 0, flags = 0;
    if (!read_small(args[3], "tile", 0, kNumKinds - 1, tile) ||
        !read_small(args[4], "discarder", 0, query.num_players - 1, discarder) ||
        !read_small(args[5], "forms", 1, kAllForms, forms) || !read_small(args[6], "chow_seats", 0, 15, chow_seats) ||
        !read_small(args[7], "flags", 0, 7, flags))
        return nullptr;
    query.tile = int(tile);
    query.discarder = int(discarder);
    query.forms = unsigned(forms);
    query.chow_seats = unsigned(chow_seats);
    query.flags = unsigned(flags);
    std::uint8_t* bytes = nullptr;
    if (cache) {  // read here: no Python code runs from now to the write below (sizes and bytes checked first)
        if (PyByteArray_GET_SIZE(args[2]) != seats) {
            PyErr_SetString(PyExc_ValueError, "claim_scan: the ready cache must have one byte per seat");
            return nullptr;
        }
        bytes = reinterpret_cast<std::uint8_t*>(PyByteArray_AS_STRING(args[2]));
        for (Py_ssize_t seat = 0; seat < seats; ++seat) {  // seats: 2..4, checked above (ready holds 4)
            if (bytes[seat] > 1 && bytes[seat] != kReadyUnknown) {
                PyErr_SetString(PyExc_ValueError, "claim_scan: a ready byte must be 0, 1 or 255");
                return nullptr;
            }
            query.ready[seat] = bytes[seat] == kReadyUnknown ? -1 : static_cast<signed char>(bytes[seat]);
        }
    }
    const signed char before[4] = {query.ready[0], query.ready[1], query.ready[2], query.ready[3]};
    const std::uint32_t shapes = claim_shapes(query);
    bool learned = false;  // did the scan work out a seat's readiness that was unknown?
    for (int seat = 0; seat < query.num_players; ++seat) learned |= before[seat] < 0 && query.ready[seat] >= 0;
    if (bytes != nullptr) {  // in place, and nothing to return
        for (int seat = 0; seat < query.num_players; ++seat)
            bytes[seat] = query.ready[seat] < 0 ? kReadyUnknown : static_cast<std::uint8_t>(query.ready[seat]);
        learned = false;
    }
    PyObject* ready = Py_None;
    if (learned) {  // the cache after the scan, for the caller to store: None unknown, False, True
        ready = PyTuple_New(query.num_players);
        if (ready == nullptr) return nullptr;
        for (int seat = 0; seat < query.num_players; ++seat) {
            PyObject* value = query.ready[seat] < 0 ? Py_None : query.ready[seat] ? Py_True : Py_False;
            Py_INCREF(value);
            PyTuple_SET_ITEM(ready, seat, value);
        }
    } else {
        Py_INCREF(ready);
    }
    PyObject* bits = PyLong_FromUnsignedLong(shapes);
    PyObject* out = bits != nullptr ? PyTuple_Pack(2, bits, ready) : nullptr;
    Py_XDECREF(bits);
    Py_DECREF(ready);
    return out;
}

// actions[k] for every kind k that ``hand`` (34 counts) holds, in kind order, from a tuple of 34 items that are
// never read, only referenced (Python's itertools.compress does the same five times slower, and this runs every
// turn).
PyObject* held_subset(const std::uint8_t* hand, PyObject* actions) {
    Py_ssize_t count = 0;
    for (int kind = 0; kind < kNumKinds; ++kind) count += hand[kind] != 0;
    PyObject* out = PyTuple_New(count);
    if (out == nullptr) return nullptr;
    Py_ssize_t at = 0;
    for (int kind = 0; kind < kNumKinds; ++kind) {
        if (hand[kind] == 0) continue;
        PyObject* item = PyTuple_GET_ITEM(actions, kind);  // the tuple is immutable and the caller holds it
        Py_INCREF(item);
        PyTuple_SET_ITEM(out, at++, item);
    }
    return out;
}

bool is_action_table(PyObject* actions) {
    return PyTuple_CheckExact(actions) && PyTuple_GET_SIZE(actions) == kNumKinds;
}

// held_actions(hand, actions) -> tuple: a turn's discards, picked from the engine's 34 prebuilt Action objects.
PyObject* held_actions(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 2 || !is_action_table(args[1])) {
        PyErr_SetString(PyExc_TypeError, "held_actions expects 34 counts and a tuple of 34 items");
        return nullptr;
    }
    std::uint8_t hand[kNumKinds];
    if (!read_hand(args[0], hand, "held_actions")) return nullptr;
    return held_subset(hand, args[1]);
}

// identity_index(items, item) -> int: the position of `item` itself (the same object) in the tuple `items`, or
// -1. Pointers are compared and nothing is read or called, so no code of a caller's runs (tuple.index would call
// __eq__ on every earlier item): how Game.apply finds the chosen action among its cached legal ones.
PyObject* identity_index(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyTuple_CheckExact(args[0])) {
        PyErr_SetString(PyExc_TypeError, "identity_index expects a tuple and an object");
        return nullptr;
    }
    const Py_ssize_t size = PyTuple_GET_SIZE(args[0]);
    for (Py_ssize_t at = 0; at < size; ++at)
        if (PyTuple_GET_ITEM(args[0], at) == args[1]) return PyLong_FromSsize_t(at);
    return PyLong_FromLong(-1);
}

// What a turn may offer besides discards (turn_scan's bits), read from the first five arguments of turn_scan or
// plain_turn; -1 with a Python error set if one is malformed.
long scan_turn(PyObject* const* args, const char* name, std::uint8_t* hand) {
    long long melds = 0, pungs = 0, drawn = -1, forms = 0;
    if (!read_hand(args[0], hand, name) || !read_meld_count(args[1], melds) ||
        !read_small(args[2], "pungs", 0, static_cast<long long>(kAllKinds), pungs) ||
        !read_small(args[3], "drawn", -1, kNumKinds - 1, drawn) || !read_small(args[4], "forms", 1, kAllForms, forms))
        return -1;
    long bits = 0;
    if (drawn >= 0 && hand_wins(hand, int(melds), unsigned(forms))) bits |= 1;
    if (std::memchr(hand, kMaxCopies, kNumKinds) != nullptr) {
        bits |= 2;
    } else {
        for (auto rest = static_cast<std::uint64_t>(pungs); rest != 0 && !(bits & 2); rest &= rest - 1)
            if (hand[__builtin_ctzll(rest)] > 0) bits |= 2;  // the kinds of exposed pungs, lowest first
    }
    return bits;
}

// turn_scan(hand, melds, pungs, drawn, forms) -> int.
PyObject* turn_scan(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 5) {
        PyErr_Format(PyExc_TypeError, "turn_scan expects 5 arguments, got %zd", nargs);
        return nullptr;
    }
    std::uint8_t hand[kNumKinds];
    const long bits = scan_turn(args, "turn_scan", hand);
    return bits < 0 ? nullptr : PyLong_FromLong(bits);
}

// plain_turn(hand, melds, pungs, drawn, forms, actions) -> tuple | None: turn_scan and held_actions in one call,
// the engine's common turn (nothing but discards) answered without a second crossing.
PyObject* plain_turn(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 6 || !is_action_table(args[5])) {
        PyErr_SetString(PyExc_TypeError, "plain_turn expects 5 turn_scan arguments and a tuple of 34 items");
        return nullptr;
    }
    std::uint8_t hand[kNumKinds];
    const long bits = scan_turn(args, "plain_turn", hand);
    if (bits < 0) return nullptr;
    if (bits != 0) Py_RETURN_NONE;
    return held_subset(hand, args[5]);
}

PyMethodDef kEngineMethods[] = {
    {"claim_scan", as_method(claim_scan), METH_FASTCALL,
     "claim_scan($module, hands, melds, ready, tile, discarder, forms, chow_seats, flags, /)\n--\n\n"
     "The claims every seat but the discarder could make on `tile` by the shape of its hand. Per seat: hands\n"
     "34 counts (a buffer: the engine's bytearrays), melds its exposed meld count (its meld records, bytes of 6\n"
     "a meld; an int; or a list whose length it is), ready -1/None unknown, 0/False, 1/True, or the engine's\n"
     "cache, a bytearray of a byte per seat (255 unknown, 0, 1), written in place (then ready below is None).\n"
     "chow_seats: bit s = seat s may chow; flags: 1 melds\n"
     "claimable, 2 kong allowed, 4 check wins (in `forms`; a seat known not ready is skipped, an unknown one\n"
     "worked out first). Returns (shapes, ready): shapes has 8 bits per seat at 8*seat (1 win, 2 pung,\n"
     "4 kong; chows 8, 16, 32: the tile high, middle, low in the run); ready is None if the scan worked out no\n"
     "unknown seat's readiness, else the per-seat cache after it (None, False, True) for the caller to store.\n"
     "For hupai.rules.base.Rules.claim_options."},
    {"held_actions", as_method(held_actions), METH_FASTCALL,
     "held_actions($module, hand, actions, /)\n--\n\n"
     "actions[k] for every kind k held in `hand` (34 counts), in kind order; `actions` is a tuple of 34 items,\n"
     "returned as they are (never read). For the engine's turn discards."},
    {"identity_index", as_method(identity_index), METH_FASTCALL,
     "identity_index($module, items, item, /)\n--\n\n"
     "The position of `item` itself (identity, not equality) in the tuple `items`, or -1. Compares pointers\n"
     "only: no code of the items runs. For the engine's chosen-action look-up."},
    {"plain_turn", as_method(plain_turn), METH_FASTCALL,
     "plain_turn($module, hand, melds, pungs, drawn, forms, actions, /)\n--\n\n"
     "held_actions(hand, actions) if turn_scan(hand, melds, pungs, drawn, forms) is zero (the turn is only its\n"
     "discards), else None. One crossing for the engine's common turn."},
    {"turn_scan", as_method(turn_scan), METH_FASTCALL,
     "turn_scan($module, hand, melds, pungs, drawn, forms, /)\n--\n\n"
     "Bits of what a turn may offer besides discards: 1 the hand (34 counts) is complete in `forms` with\n"
     "`melds` exposed (asked only if drawn >= 0), 2 a kong may be possible (four held, or a held kind in\n"
     "`pungs`, the mask of the seat's exposed pungs' kinds). Zero: the turn is only its discards."},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace

void register_engine(py::module_& m) { add_functions(m, kEngineMethods); }

}  // namespace hupai::binding
