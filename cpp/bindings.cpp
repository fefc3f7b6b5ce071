// pybind11 bindings: argument checks, GIL release, numpy views. No game logic lives here.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <thread>

#include "analysis.hpp"
#include "decompose.hpp"
#include "tables.hpp"
#include "wall.hpp"

namespace py = pybind11;
using namespace hupai;

// The game engine's helpers (bindings_engine.cpp): plain METH_FASTCALL functions, null-terminated.
PyMethodDef* engine_methods();
// The wild-tile search (register_wild.cpp).
void register_wild(py::module_& m);
// The Wai Huzi core's functions (register_zipai.cpp).
void register_zipai(py::module_& m);

namespace {

// hupai.errors.InvalidHand, looked up once.
PyObject* invalid_hand_type() {
    PYBIND11_CONSTINIT static py::gil_safe_call_once_and_store<py::object> storage;
    return storage
        .call_once_and_store_result([] { return py::module_::import("hupai.errors").attr("InvalidHand"); })
        .get_stored()
        .ptr();
}

void set_invalid_hand(const std::string& message) { PyErr_SetString(invalid_hand_type(), message.c_str()); }

// ------------------------------------------------------------------ fast single-hand calls
//
// hupai.shanten / hupai.is_win are called millions of times from Python, so they are plain METH_FASTCALL
// functions: a uint8[34] numpy array is read in place through the buffer protocol; anything else (a tile string,
// a list of kinds, another dtype) goes through hupai.tiles.to_counts first.

struct Counts34 {
    std::array<std::uint8_t, kNumKinds> values;
};

// A 1-D uint8 numpy array of 34 read straight from its struct: numpy's buffer export costs about half a
// microsecond a call, more than the analysis. Only exact ndarrays (numpy is then surely imported).
bool read_ndarray(PyObject* hand, Counts34& out) {
    if (std::strcmp(Py_TYPE(hand)->tp_name, "numpy.ndarray") != 0) return false;
    const auto* array = py::detail::array_proxy(hand);
    if (array->nd != 1 || array->dimensions[0] != kNumKinds) return false;
    if (py::detail::array_descriptor_proxy(array->descr)->type_num != py::detail::npy_api::NPY_UBYTE_) return false;
    const ssize_t stride = array->strides[0];
    if (stride == 1) {
        std::memcpy(out.values.data(), array->data, kNumKinds);
    } else {
        for (int k = 0; k < kNumKinds; ++k) out.values[k] = static_cast<std::uint8_t>(array->data[k * stride]);
    }
    return true;
}

bool read_counts(PyObject* hand, Counts34& out) {
    if (read_ndarray(hand, out)) return true;
    if (PyObject_CheckBuffer(hand)) {
        Py_buffer view;
        if (PyObject_GetBuffer(hand, &view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) == 0) {
            const bool usable = view.ndim == 1 && view.len == kNumKinds && view.itemsize == 1 &&
                                view.format != nullptr && (std::strcmp(view.format, "B") == 0);
            if (usable) std::memcpy(out.values.data(), view.buf, kNumKinds);
            PyBuffer_Release(&view);
            if (usable) return true;
        } else {
            PyErr_Clear();
        }
    }
    // Slow path: let the notation module parse and validate (it raises InvalidHand itself).
    py::object converted;
    try {
        converted = py::module_::import("hupai.tiles").attr("to_counts")(py::handle(hand));
    } catch (py::error_already_set& error) {
        error.restore();
        return false;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(converted.ptr(), &view, PyBUF_C_CONTIGUOUS) != 0) return false;
    std::memcpy(out.values.data(), view.buf, kNumKinds);
    PyBuffer_Release(&view);
    return true;
}

bool read_int(PyObject* value, const char* name, int& out) {
    if (PyBool_Check(value) || !PyLong_Check(value)) {
        PyErr_Format(invalid_hand_type(), "%s must be an int, got %s", name, Py_TYPE(value)->tp_name);
        return false;
    }
    int overflow = 0;
    const long parsed = PyLong_AsLongAndOverflow(value, &overflow);
    if (overflow != 0 || parsed < -1000 || parsed > 1000) {  // far outside every valid range
        if (!PyErr_Occurred()) PyErr_Format(invalid_hand_type(), "%s=%S is out of range", name, value);
        return false;
    }
    out = int(parsed);
    return true;
}

bool read_joker_kinds(PyObject* value, KindMask& out) {
    if (value == Py_None) {
        out = kAllKinds;
        return true;
    }
    py::object mask;
    try {
        mask = py::module_::import("hupai.analysis").attr("_joker_mask")(py::handle(value));
    } catch (py::error_already_set& error) {
        error.restore();
        return false;
    }
    out = KindMask(PyLong_AsUnsignedLongLong(mask.ptr()));
    return !PyErr_Occurred();
}

// Parses (hand, *, jokers=0, melds=0, forms=1, joker_kinds=None).
bool parse_query(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames, Counts34& counts, HandQuery& query) {
    if (nargs != 1) {
        PyErr_Format(PyExc_TypeError, "expected one positional argument (the hand), got %zd", nargs);
        return false;
    }
    query = HandQuery{};
    PyObject* joker_kinds = Py_None;
    const Py_ssize_t keywords = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t i = 0; i < keywords; ++i) {
        PyObject* name = PyTuple_GET_ITEM(kwnames, i);
        PyObject* value = args[nargs + i];
        int parsed = 0;
        if (PyUnicode_CompareWithASCIIString(name, "jokers") == 0) {
            if (!read_int(value, "jokers", query.jokers)) return false;
        } else if (PyUnicode_CompareWithASCIIString(name, "melds") == 0) {
            if (!read_int(value, "melds", query.melds)) return false;
        } else if (PyUnicode_CompareWithASCIIString(name, "forms") == 0) {
            if (!read_int(value, "forms", parsed)) return false;
            if (parsed <= 0) {
                PyErr_Format(invalid_hand_type(),
                             "forms must be a non-empty combination of hupai.Forms flags, got %d", parsed);
                return false;
            }
            query.forms = unsigned(parsed);
        } else if (PyUnicode_CompareWithASCIIString(name, "joker_kinds") == 0) {
            joker_kinds = value;
        } else {
            PyErr_Format(PyExc_TypeError, "unexpected keyword argument '%U'", name);
            return false;
        }
    }
    if (!read_joker_kinds(joker_kinds, query.joker_kinds)) return false;
    if (!read_counts(args[0], counts)) return false;
    query.counts = counts.values.data();
    return true;
}

PyObject* fast_shanten(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
    Counts34 counts;
    HandQuery query;
    if (!parse_query(args, nargs, kwnames, counts, query)) return nullptr;
    const int code = check_query(query, SizeRule::kAny);
    if (code != 0) {
        set_invalid_hand(describe_error(query, SizeRule::kAny, code));
        return nullptr;
    }
    return PyLong_FromLong(hand_cost(query) - 1);
}

PyObject* fast_is_win(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
    Counts34 counts;
    HandQuery query;
    if (!parse_query(args, nargs, kwnames, counts, query)) return nullptr;
    const int code = check_query(query, SizeRule::kComplete);
    if (code != 0) {
        set_invalid_hand(describe_error(query, SizeRule::kComplete, code));
        return nullptr;
    }
    return PyBool_FromLong(hand_complete(query));
}

PyMethodDef kFastMethods[] = {
    {"shanten", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fast_shanten)),
     METH_FASTCALL | METH_KEYWORDS,
     "shanten(hand, *, jokers=0, melds=0, forms=1, joker_kinds=None)\n--\n\n"
     "Shanten number of a hand: -1 complete, 0 ready (听牌), n = n more useful tiles needed.\n\n"
     "hand: the natural concealed tiles, as a tile string ('123m456p'), a list of kinds or a uint8[34] counts\n"
     "vector (read in place, fastest). jokers: wild tiles on top of them (0..8). melds: exposed melds set\n"
     "aside (0..4); the concealed part then has 3*(4-melds)+1 or +2 tiles, jokers included. forms: a\n"
     "hupai.Forms combination; the minimum over the forms is returned. joker_kinds: the kinds jokers may\n"
     "stand for (kinds or a 34-bit mask; None = all). Raises hupai.InvalidHand on malformed input."},
    {"is_win", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fast_is_win)),
     METH_FASTCALL | METH_KEYWORDS,
     "is_win(hand, *, jokers=0, melds=0, forms=1, joker_kinds=None)\n--\n\n"
     "True if the concealed part (3*(4-melds)+2 tiles, jokers included) is complete in one of `forms`.\n"
     "Arguments as for shanten. A hand never completes with more than four of a kind, jokers' stand-ins\n"
     "included. Raises hupai.InvalidHand on malformed input or a hand of the wrong size."},
    {nullptr, nullptr, 0, nullptr},
};

// ------------------------------------------------------------------ numpy batch calls

// A scalar, or an int32 array with one value per row (kept alive by `keep`).
void per_row(const py::object& value, py::ssize_t rows, const char* name, const std::int32_t*& values,
             int& scalar, py::object& keep) {
    if (py::isinstance<py::int_>(value)) {
        scalar = value.cast<int>();  // the Python wrapper has already refused values outside int32
        return;
    }
    auto array = py::array_t<std::int32_t, py::array::c_style>::ensure(value);
    if (!array || array.ndim() != 1 || array.shape(0) != rows)
        throw InvalidHand(std::string(name) + " must be an int or an int32 array with one value per row");
    keep = array;
    values = array.data();
}

template <typename Out>
py::array_t<Out> run_batch(const py::array_t<std::uint8_t>& counts, const py::object& jokers, const py::object& melds,
                           unsigned forms, KindMask joker_kinds, int threads, SizeRule rule,
                           long long (*kernel)(const BatchRows&, long long, long long, Out*, int*)) {
    if (counts.ndim() != 2 || counts.shape(1) != kNumKinds) throw InvalidHand("counts must have shape (N, 34)");
    if (!(counts.flags() & py::array::c_style)) throw InvalidHand("counts must be C-contiguous");
    if (threads < 1 || threads > 256)
        throw InvalidHand("threads must be between 1 and 256, got " + std::to_string(threads));
    const py::ssize_t count = counts.shape(0);
    BatchRows rows;
    rows.counts = counts.data();
    rows.forms = forms;
    rows.joker_kinds = joker_kinds;
    py::object keep_jokers, keep_melds;
    per_row(jokers, count, "jokers", rows.jokers, rows.joker_scalar, keep_jokers);
    per_row(melds, count, "melds", rows.melds, rows.meld_scalar, keep_melds);
    py::array_t<Out> result(count);
    Out* out = result.mutable_data();

    // Each worker stops at its first invalid row; the lowest such row is reported.
    const int workers = int(std::max<py::ssize_t>(1, std::min<py::ssize_t>(threads, count)));
    std::vector<long long> bad_row(workers, -1);
    std::vector<int> bad_code(workers, 0);
    auto work = [&](int worker) {
        const long long begin = count * worker / workers, end = count * (worker + 1) / workers;
        bad_row[worker] = kernel(rows, begin, end, out, &bad_code[worker]);
    };
    {
        py::gil_scoped_release release;  // holding it would also stall Python's garbage collector
        Tables::get();                   // build before the workers start
        if (workers == 1) {
            work(0);
        } else {
            std::vector<std::thread> pool;
            for (int w = 0; w < workers; ++w) pool.emplace_back(work, w);
            for (auto& thread : pool) thread.join();
        }
    }
    for (int w = 0; w < workers; ++w)
        if (bad_row[w] >= 0)
            throw InvalidHand("row " + std::to_string(bad_row[w]) + ": " +
                              describe_error(rows.row(bad_row[w]), rule, bad_code[w]));
    return result;
}

std::vector<int> group_entry_values(GroupEntry entry) {
    std::vector<int> values(10);
    for (int bit = 0; bit < 10; ++bit) values[bit] = entry_value(entry, bit % 5, bit / 5);
    return values;
}

HandQuery query_of(const py::array_t<std::uint8_t, py::array::c_style>& counts, int jokers, int melds,
                   unsigned forms, KindMask joker_kinds) {
    if (counts.ndim() != 1 || counts.shape(0) != kNumKinds) throw InvalidHand("counts must have shape (34,)");
    return HandQuery{counts.data(), jokers, melds, forms, joker_kinds};
}

// A non-negative seed as SeedSequence reads it: 32-bit words, least significant first (0 is one word 0).
std::vector<std::uint32_t> seed_words(const py::int_& seed) {
    if (PyObject_RichCompareBool(seed.ptr(), py::int_(0).ptr(), Py_LT) == 1)
        throw InvalidHand("a seed must be a non-negative int");
    std::vector<std::uint32_t> words;
    py::int_ rest = seed;
    const py::int_ mask(0xFFFFFFFFu), shift(32), zero(0);
    do {
        words.push_back(py::cast<std::uint32_t>(rest & mask));
        rest = py::int_(rest >> shift);
    } while (PyObject_RichCompareBool(rest.ptr(), zero.ptr(), Py_GT) == 1);
    return words;
}

}  // namespace

PYBIND11_MODULE(_core, m) {
    m.doc() = "hupai's C++ core: table-driven hand analysis (private; use the hupai package)";

    py::register_exception_translator([](std::exception_ptr error) {
        try {
            if (error) std::rethrow_exception(error);
        } catch (const InvalidHand& invalid) {
            set_invalid_hand(invalid.what());
        }
    });

    for (PyMethodDef* table : {kFastMethods, engine_methods()}) {
        for (PyMethodDef* def = table; def->ml_name != nullptr; ++def) {
            PyObject* function = PyCFunction_NewEx(def, nullptr, m.ptr());
            if (function == nullptr) throw py::error_already_set();
            m.add_object(def->ml_name, py::reinterpret_steal<py::object>(function));
        }
    }

    m.def(
        "waits",
        [](const py::array_t<std::uint8_t, py::array::c_style>& counts, int jokers, int melds, unsigned forms,
           KindMask joker_kinds) { return waits(query_of(counts, jokers, melds, forms, joker_kinds)); },
        py::arg("counts"), py::arg("jokers"), py::arg("melds"), py::arg("forms"), py::arg("joker_kinds"),
        "Kinds that complete a 3n+1 hand (see hupai.waits).");

    m.def(
        "discard_analysis",
        [](const py::array_t<std::uint8_t, py::array::c_style>& counts, int jokers, int melds, unsigned forms,
           KindMask joker_kinds) {
            std::int8_t shanten_after[kNumKinds];
            std::uint64_t improving[kNumKinds];
            discard_analysis(query_of(counts, jokers, melds, forms, joker_kinds), shanten_after, improving);
            py::list out;
            const std::uint8_t* held = counts.data();
            for (int kind = 0; kind < kNumKinds; ++kind) {
                if (shanten_after[kind] == 127) continue;
                int copies = 0;  // the improving tiles this hand does not hold (受入 counted in tiles)
                for (int draw = 0; draw < kNumKinds; ++draw)
                    if (improving[kind] >> draw & 1) copies += kMaxCopies - held[draw];
                out.append(py::make_tuple(kind, int(shanten_after[kind]), improving[kind], copies));
            }
            return out;
        },
        py::arg("counts"), py::arg("jokers"), py::arg("melds"), py::arg("forms"), py::arg("joker_kinds"),
        "For each kind held: (kind, shanten after discarding it, bit mask of draws that would then lower it,\n"
        "how many copies of those draws the hand does not hold).");

    m.def(
        "decompositions",
        [](const py::array_t<std::uint8_t, py::array::c_style>& counts, int jokers, int melds, unsigned forms,
           KindMask joker_kinds) {
            const auto readings = decompose(query_of(counts, jokers, melds, forms, joker_kinds));
            py::list out;
            for (const Reading& reading : readings) {
                py::list groups;
                for (const ReadGroup& group : reading.groups) {
                    std::vector<int> tiles(group.tiles.begin(), group.tiles.end());
                    std::vector<int> stand_ins(group.jokers.begin(), group.jokers.end());
                    groups.append(py::make_tuple(int(group.type), py::tuple(py::cast(tiles)),
                                                 py::tuple(py::cast(stand_ins))));
                }
                out.append(py::make_tuple(int(reading.form), groups));
            }
            return out;
        },
        py::arg("counts"), py::arg("jokers"), py::arg("melds"), py::arg("forms"), py::arg("joker_kinds"),
        "Every reading of a complete hand as (form, [(group type, tiles, joker stand-ins)]).");

    m.def(
        "shanten_batch",
        [](const py::array_t<std::uint8_t>& counts, const py::object& jokers, const py::object& melds, unsigned forms,
           KindMask joker_kinds, int threads) {
            return run_batch<std::int8_t>(counts, jokers, melds, forms, joker_kinds, threads, SizeRule::kAny,
                                          shanten_rows);
        },
        py::arg("counts"), py::arg("jokers"), py::arg("melds"), py::arg("forms"), py::arg("joker_kinds"),
        py::arg("threads"), "Shanten of every row (see hupai.shanten_batch).");

    m.def(
        "is_win_batch",
        [](const py::array_t<std::uint8_t>& counts, const py::object& jokers, const py::object& melds, unsigned forms,
           KindMask joker_kinds, int threads) {
            return run_batch<bool>(counts, jokers, melds, forms, joker_kinds, threads, SizeRule::kComplete,
                                   is_win_rows);
        },
        py::arg("counts"), py::arg("jokers"), py::arg("melds"), py::arg("forms"), py::arg("joker_kinds"),
        py::arg("threads"), "Completeness of every row (see hupai.is_win_batch).");

    m.def(
        "suit_table_entry",
        [](const std::vector<int>& counts9) {
            if (counts9.size() != 9) throw InvalidHand("a suit pattern has 9 counts");
            std::uint8_t counts[9];
            int total = 0;
            for (int i = 0; i < 9; ++i) {
                if (counts9[i] < 0 || counts9[i] > 4) throw InvalidHand("suit counts must be 0..4");
                counts[i] = std::uint8_t(counts9[i]);
                total += counts9[i];
            }
            if (total > kMaxConcealed) throw InvalidHand("a suit pattern holds at most 14 tiles");
            return group_entry_values(Tables::get().suit(counts));
        },
        py::arg("counts9"),
        "Table entry of one suit pattern: 10 values, index m + 5p = tiles missing for m melds and p pairs.");

    m.def(
        "honor_table_entry",
        [](const std::vector<int>& counts7) {
            if (counts7.size() != 7) throw InvalidHand("an honor pattern has 7 counts");
            std::uint8_t counts[7];
            for (int i = 0; i < 7; ++i) {
                if (counts7[i] < 0 || counts7[i] > 4) throw InvalidHand("honor counts must be 0..4");
                counts[i] = std::uint8_t(counts7[i]);
            }
            return group_entry_values(Tables::get().honors(counts));
        },
        py::arg("counts7"), "Table entry of the honors: 10 values, index m + 5p.");

    m.def(
        "standard_deficiency_variant",
        [](const py::array_t<std::uint8_t, py::array::c_style>& counts, int melds_needed, int variant) {
            const HandQuery query = query_of(counts, 0, kMaxMelds - melds_needed, kStandard, kAllKinds);
            require_valid(query, SizeRule::kAny);
            return standard_deficiency_variant(query.counts, melds_needed, variant);
        },
        py::arg("counts"), py::arg("melds_needed"), py::arg("variant"),
        "Standard-form deficiency by one implementation: 0 portable, 1 SSSE3, 2 AVX2 (for tests).");

    m.def(
        "shuffle_tiles",
        [](std::vector<int> tiles, const py::int_& seed) {
            const std::vector<std::uint32_t> entropy = seed_words(seed);
            shuffle_tiles(tiles, entropy);
            return tiles;
        },
        py::arg("tiles"), py::arg("seed"),
        "The tiles in the order hupai.game.wall.shuffle gives them (numpy's PCG64 seeded with `seed`, then\n"
        "Fisher-Yates from the end with a multiply-shift pick).");

    m.def(
        "pcg64_raw",
        [](const py::int_& seed, int count) {
            if (count < 0) throw InvalidHand("count must be non-negative");
            Pcg64 generator(seed_words(seed));
            std::vector<std::uint64_t> out(static_cast<std::size_t>(count));
            for (auto& value : out) value = generator.next();
            return out;
        },
        py::arg("seed"), py::arg("count"),
        "The first `count` raw outputs of np.random.PCG64(seed) (for tests).");

    m.def("table_bytes", [] { return Tables::get().bytes(); }, "Memory held by the lookup tables, in bytes.");
    m.def("suit_patterns", [] { return Tables::get().suit_patterns(); }, "Number of suit patterns in the table.");

    register_wild(m);
    register_zipai(m);
}
