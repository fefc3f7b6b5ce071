// Single-hand calls: shanten, is_win, waits, discard analysis, decompositions, and the table probes for tests.
// Every hand arrives as 34 counts in a buffer (pyargs.hpp); the logic is in analysis.cpp and decompose.cpp.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <climits>
#include <cstring>

#include "analysis.hpp"
#include "decompose.hpp"
#include "pyargs.hpp"
#include "register.hpp"
#include "tables.hpp"

namespace py = pybind11;

namespace hupai::binding {

namespace {

using Counts = std::array<std::uint8_t, kNumKinds>;

// jokers and melds: any int is read, but only -1000..1000 passes on (check_query then names the real limits,
// 0..8 and 0..4); the rest is refused here, so INT_MIN and friends never reach any arithmetic.
bool read_loose(PyObject* value, const char* name, int& out) {
    long long parsed = 0;
    if (!read_int(value, name, LLONG_MIN, LLONG_MAX, parsed)) return false;
    if (parsed < -1000 || parsed > 1000) {
        PyErr_Format(invalid_hand_type(), "%s must be between 0 and %d, got %lld", name,
                     std::strcmp(name, "jokers") == 0 ? kMaxJokers : kMaxMelds, parsed);
        return false;
    }
    out = int(parsed);
    return true;
}

bool read_forms(PyObject* value, unsigned& out) {
    long long parsed = 0;
    if (!read_int(value, "forms", LLONG_MIN, LLONG_MAX, parsed)) return false;
    if (parsed <= 0 || parsed > kAllForms) {
        PyErr_Format(invalid_hand_type(), "forms must be a non-empty combination of hupai.Forms flags, got %lld",
                     parsed);
        return false;
    }
    out = unsigned(parsed);
    return true;
}

// ------------------------------------------------------------------ shanten and is_win
//
// hupai.shanten / hupai.is_win are called millions of times from Python, so they are raw METH_FASTCALL functions
// over plain data: the hand a buffer of 34 counts, the options ints. ``_core.shanten`` refuses anything else;
// hupai.analysis builds the public functions with ``hand_function(name, fallback)``: the same C function with
// ``self`` = a Python fallback that gets the call whenever the hand (a tile string, a kind list) or joker_kinds
// (a list of kinds) is not plain data. The fallback converts them and calls ``_core`` again with plain data.
enum class Parsed { kDone, kRoute, kFailed };

// Parses (hand, *, jokers=0, melds=None, forms=1, joker_kinds=None); melds_given says whether melds was passed
// (None counts as not passed: the size then says how many, see infer_melds).
Parsed parse_query(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames, Counts& counts, HandQuery& query,
                   bool& melds_given) {
    if (nargs != 1) {
        PyErr_Format(PyExc_TypeError, "expected one positional argument (the hand), got %zd", nargs);
        return Parsed::kFailed;
    }
    query = HandQuery{};
    melds_given = false;
    PyObject* joker_kinds = Py_None;
    const Py_ssize_t keywords = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t i = 0; i < keywords; ++i) {
        PyObject* name = PyTuple_GET_ITEM(kwnames, i);  // kwnames and args stay alive for the whole call
        PyObject* value = args[nargs + i];
        bool ok = true;
        if (PyUnicode_CompareWithASCIIString(name, "jokers") == 0) {
            ok = read_loose(value, "jokers", query.jokers);
        } else if (PyUnicode_CompareWithASCIIString(name, "melds") == 0) {
            melds_given = value != Py_None;
            ok = value == Py_None || read_loose(value, "melds", query.melds);
        } else if (PyUnicode_CompareWithASCIIString(name, "forms") == 0) {
            ok = read_forms(value, query.forms);
        } else if (PyUnicode_CompareWithASCIIString(name, "joker_kinds") == 0) {
            joker_kinds = value;
        } else {
            PyErr_Format(PyExc_TypeError, "unexpected keyword argument '%U'", name);
            return Parsed::kFailed;
        }
        if (!ok) return Parsed::kFailed;
    }
    const Read mask = read_joker_kinds(joker_kinds, query.joker_kinds);
    if (mask != Read::kDone) return mask == Read::kFailed ? Parsed::kFailed : Parsed::kRoute;
    const Read hand = read_counts(args[0], counts.data());
    if (hand != Read::kDone) return hand == Read::kFailed ? Parsed::kFailed : Parsed::kRoute;
    query.counts = counts.data();
    return Parsed::kDone;
}

// melds not given: a hand of 3n+1 or 3n+2 tiles (jokers included) under 13 has 4-n melds set aside, as the
// `mahjong` package reads an 11-tile hand. Asked only once the query fails at melds=0, so a full hand pays nothing.
bool infer_melds(HandQuery& query) {
    int total = query.jokers;
    for (int k = 0; k < kNumKinds; ++k) total += query.counts[k];
    if (total % 3 == 0 || total >= 3 * kMaxMelds + 1) return false;
    query.melds = (3 * kMaxMelds + 2 - total) / 3;
    return true;
}

PyObject* hand_call(PyObject* fallback, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames, SizeRule rule) {
    Counts counts;
    HandQuery query;
    bool melds_given = false;
    switch (parse_query(args, nargs, kwnames, counts, query, melds_given)) {
        case Parsed::kFailed:
            return nullptr;
        case Parsed::kRoute:
            if (fallback != nullptr) return PyObject_Vectorcall(fallback, args, size_t(nargs), kwnames);
            set_invalid_hand(std::string("expected 34 counts (a numpy array, bytes, bytearray or memoryview) and "
                                         "joker_kinds as a mask or None, got a hand of type ") +
                             Py_TYPE(args[0])->tp_name);
            return nullptr;
        case Parsed::kDone:
            break;
    }
    int code = check_query(query, rule);
    if (code != 0 && !melds_given && query.melds == 0 && infer_melds(query)) code = check_query(query, rule);
    if (code != 0) {
        set_invalid_hand(describe_error(query, rule, code));
        return nullptr;
    }
    if (rule == SizeRule::kComplete) return PyBool_FromLong(hand_complete(query));
    return PyLong_FromLong(hand_cost(query) - 1);
}

// `self` is the module for _core's own functions, the fallback for hand_function's.
PyObject* shanten_function(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
    return hand_call(PyModule_Check(self) ? nullptr : self, args, nargs, kwnames, SizeRule::kAny);
}

PyObject* is_win_function(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
    return hand_call(PyModule_Check(self) ? nullptr : self, args, nargs, kwnames, SizeRule::kComplete);
}

// The docstrings are the public functions' (hupai.shanten, hupai.is_win are these with a fallback).
PyMethodDef kHandMethods[] = {
    {"shanten", as_method(shanten_function), METH_FASTCALL | METH_KEYWORDS,
     "shanten(hand, /, *, jokers=0, melds=None, forms=1, joker_kinds=None)\n--\n\n"
     "Shanten number of a hand: -1 complete, 0 ready (听牌), n = n more useful tiles needed.\n\n"
     "hand: the natural concealed tiles, as a tile string ('123m456p'), a list of kinds, or 34 counts: a numpy\n"
     "integer array of shape (34,) (uint8 is read in place, fastest) or any bytes-like object of 34 bytes\n"
     "(bytes, bytearray, memoryview: always counts, never kinds). jokers: wild tiles on top of them (0..8).\n"
     "melds: exposed melds set aside (0..4); the concealed part then has 3*(4-melds)+1 or +2 tiles, jokers\n"
     "included (None: read from the size, as 11 tiles are 1 meld set aside). forms: a hupai.Forms combination; the minimum over the forms is returned. joker_kinds: the\n"
     "kinds jokers may stand for (kinds or a 34-bit mask; None = all). Ints may be numpy integers, never bools.\n"
     "Raises hupai.InvalidHand on malformed input."},
    {"is_win", as_method(is_win_function), METH_FASTCALL | METH_KEYWORDS,
     "is_win(hand, /, *, jokers=0, melds=None, forms=1, joker_kinds=None)\n--\n\n"
     "True if the concealed part (3*(4-melds)+2 tiles, jokers included) is complete in one of `forms`.\n"
     "Arguments as for shanten. A hand never completes with more than four of a kind, jokers' stand-ins\n"
     "included. Raises hupai.InvalidHand on malformed input or a hand of the wrong size."},
    {nullptr, nullptr, 0, nullptr},
};

// hand_function(name, fallback): the core's `name` (shanten or is_win) with a fallback for non-plain input.
PyObject* hand_function(PyObject* module, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyUnicode_Check(args[0]) || !PyCallable_Check(args[1]) || PyModule_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "hand_function expects a name and a callable");
        return nullptr;
    }
    for (PyMethodDef* def = kHandMethods; def->ml_name != nullptr; ++def) {
        if (PyUnicode_CompareWithASCIIString(args[0], def->ml_name) != 0) continue;
        PyObject* module_name = PyModule_GetNameObject(module);  // a new reference; the function takes its own
        if (module_name == nullptr) return nullptr;
        PyObject* function = PyCFunction_NewEx(def, args[1], module_name);
        Py_DECREF(module_name);
        return function;
    }
    PyErr_Format(PyExc_ValueError, "hand_function: no core function %R", args[0]);
    return nullptr;
}

PyMethodDef kFactory[] = {
    {"hand_function", as_method(hand_function), METH_FASTCALL,
     "hand_function($module, name, fallback, /)\n--\n\n"
     "The core's `name` ('shanten' or 'is_win') calling `fallback` with the same arguments whenever the hand\n"
     "or joker_kinds is not plain data (for hupai.analysis)."},
    {nullptr, nullptr, 0, nullptr},
};

// ------------------------------------------------------------------ the other single-hand calls

// (counts, jokers, melds, forms, joker_kinds), all plain: what the hupai.analysis wrappers pass.
HandQuery plain_query(py::handle hand, py::handle jokers, py::handle melds, py::handle forms, py::handle joker_kinds,
                      Counts& counts) {
    HandQuery query;
    if (read_counts(hand.ptr(), counts.data()) == Read::kNotPlain)
        set_invalid_hand(std::string("expected 34 counts (a buffer), got ") + Py_TYPE(hand.ptr())->tp_name);
    else if (read_loose(jokers.ptr(), "jokers", query.jokers) && read_loose(melds.ptr(), "melds", query.melds) &&
             read_forms(forms.ptr(), query.forms) &&
             read_joker_kinds(joker_kinds.ptr(), query.joker_kinds) == Read::kDone) {
        query.counts = counts.data();
        return query;
    }
    if (!PyErr_Occurred()) set_invalid_hand("joker_kinds must be a 34-bit mask or None");
    throw py::error_already_set();
}

std::vector<int> group_entry_values(GroupEntry entry) {
    std::vector<int> values(10);
    for (int bit = 0; bit < 10; ++bit) values[bit] = entry_value(entry, bit % 5, bit / 5);
    return values;
}

// The improving tiles a hand does not hold (受入 counted in tiles), for a mask of improving draws.
int unseen_copies(const HandQuery& query, std::uint64_t improving) {
    int copies = 0;
    for (std::uint64_t bits = improving; bits != 0; bits &= bits - 1)  // the set bits only
        copies += kMaxCopies - query.counts[__builtin_ctzll(bits)];
    return copies;
}

py::list discard_list(const HandQuery& query, int variant = 1) {
    std::int8_t shanten_after[kNumKinds];
    std::uint64_t improving[kNumKinds];
    discard_analysis(query, shanten_after, improving, variant);
    py::list out;
    for (int kind = 0; kind < kNumKinds; ++kind) {
        if (shanten_after[kind] == 127) continue;
        out.append(py::make_tuple(kind, int(shanten_after[kind]), improving[kind],
                                  unseen_copies(query, improving[kind])));
    }
    return out;
}

// discard_scores: GreedyBot asks it at every turn, so it is a raw METH_FASTCALL function too (no pybind11
// argument loaders, no per-call function record look-up): the five arguments positional, as Advice passes them.
constexpr int kNotHeld = -(1 << 20);

PyObject* discard_scores_function(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
    if (nargs != 5 || (kwnames != nullptr && PyTuple_GET_SIZE(kwnames) != 0)) {
        PyErr_Format(PyExc_TypeError,
                     "discard_scores(counts, jokers, melds, forms, joker_kinds): five positional arguments, got %zd",
                     nargs + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0));
        return nullptr;
    }
    Counts counts;
    HandQuery query;
    if (!read_loose(args[1], "jokers", query.jokers) || !read_loose(args[2], "melds", query.melds) ||
        !read_forms(args[3], query.forms))
        return nullptr;
    const Read mask = read_joker_kinds(args[4], query.joker_kinds);
    if (mask != Read::kDone) {
        if (mask == Read::kNotPlain) set_invalid_hand("joker_kinds must be a 34-bit mask or None");
        return nullptr;
    }
    const Read hand = read_counts(args[0], counts.data());
    if (hand != Read::kDone) {
        if (hand == Read::kNotPlain)
            set_invalid_hand(std::string("expected 34 counts (a buffer), got ") + Py_TYPE(args[0])->tp_name);
        return nullptr;
    }
    query.counts = counts.data();
    const int code = check_query(query, SizeRule::kComplete);
    if (code != 0) {
        set_invalid_hand(describe_error(query, SizeRule::kComplete, code));
        return nullptr;
    }
    std::int8_t shanten_after[kNumKinds];
    std::uint64_t improving[kNumKinds];
    discard_analysis(query, shanten_after, improving);  // the query is valid: it cannot throw
    // The scores repeat (every kind not held is kNotHeld, and kinds whose discards leave the same shape score
    // alike), and most lie outside CPython's small-int cache: each distinct score is made once and the tuple
    // holds it at every kind that has it (an allocation saved per repeat, about a third of this call's Python
    // side). Only this call's own new ints, put in its return value.
    int scores[kNumKinds];
    for (int kind = 0; kind < kNumKinds; ++kind)
        scores[kind] = shanten_after[kind] == 127
                           ? kNotHeld
                           : unseen_copies(query, improving[kind]) - 256 * int(shanten_after[kind]);
    PyObject* out = PyTuple_New(kNumKinds);
    if (out == nullptr) return nullptr;
    int distinct[kNumKinds];  // the scores made so far, each by the first kind that has it
    int made = 0;
    for (int kind = 0; kind < kNumKinds; ++kind) {
        PyObject* value = nullptr;
        for (int i = 0; i < made; ++i)
            if (scores[distinct[i]] == scores[kind]) {
                value = PyTuple_GET_ITEM(out, distinct[i]);
                Py_INCREF(value);
                break;
            }
        if (value == nullptr) {
            value = PyLong_FromLong(scores[kind]);
            if (value == nullptr) {
                Py_DECREF(out);  // the slots not yet set are NULL, which a tuple's deallocation skips
                return nullptr;
            }
            distinct[made++] = kind;
        }
        PyTuple_SET_ITEM(out, kind, value);
    }
    return out;
}

PyMethodDef kDiscardMethods[] = {
    {"discard_scores", as_method(discard_scores_function), METH_FASTCALL | METH_KEYWORDS,
     "discard_scores(counts, jokers, melds, forms, joker_kinds, /)\n--\n\n"
     "34 ints, per kind: copies - 256 * shanten after discarding it (the discard_analysis entry as one\n"
     "comparable int), or -2**20 for a kind not held. counts: 34 counts in a buffer (a complete-size hand)."},
    {nullptr, nullptr, 0, nullptr},
};

py::list reading_list(const HandQuery& query) {
    py::list out;
    for (const Reading& reading : decompose(query)) {
        py::list groups;
        for (const ReadGroup& group : reading.groups) {
            py::tuple tiles(group.tiles.size()), stand_ins(group.jokers.size());
            for (size_t i = 0; i < group.tiles.size(); ++i) tiles[i] = int(group.tiles[i]);
            for (size_t i = 0; i < group.jokers.size(); ++i) stand_ins[i] = int(group.jokers[i]);
            groups.append(py::make_tuple(int(group.type), tiles, stand_ins));
        }
        out.append(py::make_tuple(int(reading.form), groups));
    }
    return out;
}

std::vector<int> table_entry(const std::vector<int>& pattern, size_t size, bool suit) {
    if (pattern.size() != size) throw InvalidHand(std::string("a pattern has ") + std::to_string(size) + " counts");
    std::uint8_t counts[9];
    int total = 0;
    for (size_t i = 0; i < size; ++i) {
        if (pattern[i] < 0 || pattern[i] > kMaxCopies) throw InvalidHand("pattern counts must be 0..4");
        counts[i] = std::uint8_t(pattern[i]);
        total += pattern[i];
    }
    if (suit && total > kMaxConcealed) throw InvalidHand("a suit pattern holds at most 14 tiles");
    return group_entry_values(suit ? Tables::get().suit(counts) : Tables::get().honors(counts));
}

}  // namespace

void register_analysis(py::module_& m) {
    add_functions(m, kHandMethods);
    add_functions(m, kFactory);
    add_functions(m, kDiscardMethods);
    m.def(
        "waits",
        [](py::handle hand, py::handle jokers, py::handle melds, py::handle forms, py::handle joker_kinds) {
            Counts counts;
            return waits(plain_query(hand, jokers, melds, forms, joker_kinds, counts));
        },
        py::arg("counts"), py::arg("jokers"), py::arg("melds"), py::arg("forms"), py::arg("joker_kinds"),
        "Kinds that complete a 3n+1 hand, ascending (see hupai.waits).");
    m.def(
        "discard_analysis",
        [](py::handle hand, py::handle jokers, py::handle melds, py::handle forms, py::handle joker_kinds) {
            Counts counts;
            return discard_list(plain_query(hand, jokers, melds, forms, joker_kinds, counts));
        },
        py::arg("counts"), py::arg("jokers"), py::arg("melds"), py::arg("forms"), py::arg("joker_kinds"),
        "For each kind held: (kind, shanten after discarding it, bit mask of draws that would then lower it,\n"
        "how many copies of those draws the hand does not hold).");
    m.def(
        "discard_analysis_variant",
        [](py::handle hand, py::handle jokers, py::handle melds, py::handle forms, py::handle joker_kinds,
           int variant) {
            Counts counts;
            return discard_list(plain_query(hand, jokers, melds, forms, joker_kinds, counts), variant);
        },
        py::arg("counts"), py::arg("jokers"), py::arg("melds"), py::arg("forms"), py::arg("joker_kinds"),
        py::arg("variant"),
        "discard_analysis by one implementation (for tests): 0 StandardPartials per discard (portable), 1 every\n"
        "(discard, draw) pair in one pass (SIMD where the CPU has it, else 0).");
    m.def(
        "discard_shanten",
        [](py::handle hand, py::handle jokers, py::handle melds, py::handle forms, py::handle joker_kinds) {
            Counts counts;
            HandQuery query = plain_query(hand, jokers, melds, forms, joker_kinds, counts);
            require_valid(query, SizeRule::kAny);
            // The shanten of every hand one discard leaves, each from hand_cost as shanten_batch finds it, with
            // no rows built: the natural kinds in place, then one joker fewer.
            std::uint8_t* held = counts.data();
            py::tuple out(kNumKinds + 1);
            for (int kind = 0; kind < kNumKinds; ++kind) {
                int after = 127;
                if (held[kind] != 0) {
                    --held[kind];
                    after = hand_cost(query) - 1;
                    ++held[kind];
                }
                out[kind] = py::int_(after);
            }
            int after = 127;
            if (query.jokers > 0) {
                --query.jokers;
                after = hand_cost(query) - 1;
                ++query.jokers;
            }
            out[kNumKinds] = py::int_(after);
            return out;
        },
        py::arg("counts"), py::arg("jokers"), py::arg("melds"), py::arg("forms"), py::arg("joker_kinds"),
        "35 ints: per kind the shanten after discarding one natural tile of it (127 if none is held), then the\n"
        "shanten after discarding a joker (127 if none). The same values as shanten_batch on those rows.");
    m.def(
        "decompositions",
        [](py::handle hand, py::handle jokers, py::handle melds, py::handle forms, py::handle joker_kinds) {
            Counts counts;
            return reading_list(plain_query(hand, jokers, melds, forms, joker_kinds, counts));
        },
        py::arg("counts"), py::arg("jokers"), py::arg("melds"), py::arg("forms"), py::arg("joker_kinds"),
        "Every reading of a complete hand as (form, [(group type, tiles, joker stand-ins)]).");
    m.def(
        "suit_table_entry", [](const std::vector<int>& counts9) { return table_entry(counts9, 9, true); },
        py::arg("counts9"),
        "Table entry of one suit pattern: 10 values, index m + 5p = tiles missing for m melds and p pairs.");
    m.def(
        "honor_table_entry", [](const std::vector<int>& counts7) { return table_entry(counts7, 7, false); },
        py::arg("counts7"), "Table entry of the honors: 10 values, index m + 5p.");
    m.def(
        "standard_deficiency_variant",
        [](py::handle hand, int melds_needed, int variant) {
            Counts counts;
            const py::int_ zero{0}, melds{kMaxMelds - melds_needed}, standard{int(kStandard)};
            const HandQuery query = plain_query(hand, zero, melds, standard, py::none(), counts);
            require_valid(query, SizeRule::kAny);
            return standard_deficiency_variant(query.counts, melds_needed, variant);
        },
        py::arg("counts"), py::arg("melds_needed"), py::arg("variant"),
        "Standard-form deficiency by one implementation: 0 portable, 1 SSSE3, 2 AVX2 (for tests).");
    m.def(
        "partial_deficiencies",
        [](py::handle hand, int melds_needed, int variant) {
            Counts counts;
            const py::int_ zero{0}, melds{kMaxMelds - melds_needed}, standard{int(kStandard)};
            const HandQuery query = plain_query(hand, zero, melds, standard, py::none(), counts);
            require_valid(query, SizeRule::kAny);
            const StandardPartials partials(counts.data(), melds_needed, variant == 0);
            std::vector<int> out(kNumKinds, -1);
            for (int draw = 0; draw < kNumKinds; ++draw) {
                if (counts[draw] >= kMaxCopies) continue;
                ++counts[draw];
                out[draw] = partials.deficiency(counts.data(), draw / 9);
                --counts[draw];
            }
            return out;
        },
        py::arg("counts"), py::arg("melds_needed"), py::arg("variant"),
        "Per kind k, StandardPartials' standard deficiency of the hand with one more k (-1 where k is held four\n"
        "times): 0 the portable steps, 1 SIMD where the CPU has it (for tests).");
    m.def(
        "buffer_counts",
        [](py::handle hand) -> py::object {
            Counts counts;
            switch (read_counts(hand.ptr(), counts.data())) {
                case Read::kNotPlain:
                    return py::none();
                case Read::kFailed:
                    throw py::error_already_set();
                case Read::kDone:
                    break;
            }
            return py::bytes(reinterpret_cast<const char*>(counts.data()), kNumKinds);
        },
        py::arg("hand"),
        "The 34 counts (0..4) a buffer holds, as bytes; None if `hand` is no buffer (a string, a kind list).\n"
        "Raises InvalidHand for a buffer that is not 34 counts.");
    m.def("table_bytes", [] { return Tables::get().bytes(); }, "Memory held by the lookup tables, in bytes.");
    m.def("suit_patterns", [] { return Tables::get().suit_patterns(); }, "Number of suit patterns in the table.");
}

}  // namespace hupai::binding
