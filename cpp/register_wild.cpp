// pybind11 registration of the wild-tile search (wild.hpp) and Yunxiao's hand questions (wild_yunxiao.hpp): plain
// data in (34-count buffers, bytes, ints), a bool or a kind bit mask out.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "pyargs.hpp"
#include "wild.hpp"
#include "wild_yunxiao.hpp"

namespace py = pybind11;

namespace {

// A buffer of 34 unsigned bytes (bytes, bytearray, a uint8 numpy array), copied out.
hupai::KindCounts read_kind_bytes(const py::buffer& data, const char* name) {
    const py::buffer_info info = data.request();
    if (info.ndim != 1 || info.size != hupai::kNumKinds || info.itemsize != 1 ||
        (info.format != "B" && info.format != "b")) {
        throw hupai::InvalidHand(std::string(name) + " must be 34 unsigned bytes (one per kind), got " +
                                 std::to_string(info.size) + " items of format '" + info.format + "'");
    }
    if (info.strides[0] != 1) throw hupai::InvalidHand(std::string(name) + " must be contiguous");
    hupai::KindCounts out{};
    std::memcpy(out.data(), info.ptr, hupai::kNumKinds);
    return out;
}

// ------------------------------------------------------------------ Yunxiao's hand questions
//
// The rule object asks one of these at every discard, so they are raw METH_FASTCALL functions (pybind11's
// argument machinery costs more than a hand that is not ready): (counts, gold, meld_tiles, melds[, loose]).
namespace yx = hupai::yunxiao;
using hupai::binding::Read;
using hupai::binding::as_method;

bool parse_hand(PyObject* const* args, Py_ssize_t nargs, Py_ssize_t expected, yx::Hand& hand, bool& loose) {
    if (nargs != expected) {
        PyErr_Format(PyExc_TypeError, "expected %zd positional arguments (counts, gold, meld_tiles, melds%s), got %zd",
                     expected, expected == 5 ? ", loose" : "", nargs);
        return false;
    }
    hupai::KindCounts counts{};
    const Read read = hupai::binding::read_counts(args[0], counts.data());
    if (read == Read::kFailed) return false;
    if (read == Read::kNotPlain) {
        hupai::binding::set_invalid_hand(std::string("counts must be 34 counts (bytes, bytearray or a uint8 array), "
                                                     "got ") + Py_TYPE(args[0])->tp_name);
        return false;
    }
    long long gold = 0;
    long long melds = 0;
    if (!hupai::binding::read_int(args[1], "gold", 0, hupai::kNumKinds - 1, gold)) return false;
    if (!hupai::binding::read_int(args[3], "melds", 0, hupai::kMaxMelds, melds)) return false;
    PyObject* meld_tiles = args[2];
    if (!PyBytes_Check(meld_tiles)) {
        hupai::binding::set_invalid_hand(std::string("meld_tiles must be bytes (the declared melds' kinds), got ") +
                                         Py_TYPE(meld_tiles)->tp_name);
        return false;
    }
    const Py_ssize_t count = PyBytes_GET_SIZE(meld_tiles);
    if (count > 4 * hupai::kMaxMelds) {
        hupai::binding::set_invalid_hand("meld_tiles holds " + std::to_string(count) + " tiles: four melds hold 16");
        return false;
    }
    std::uint8_t kinds[4 * hupai::kMaxMelds];
    std::memcpy(kinds, PyBytes_AS_STRING(meld_tiles), std::size_t(count));
    if (expected == 5) {
        const int truth = PyObject_IsTrue(args[4]);
        if (truth < 0) return false;
        loose = truth != 0;
    }
    try {
        hand = yx::make_hand(counts, int(gold), kinds, int(count), int(melds));
    } catch (const hupai::InvalidHand& invalid) {
        hupai::binding::set_invalid_hand(invalid.what());
        return false;
    }
    return true;
}

PyObject* yunxiao_waits(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    yx::Hand hand;
    bool loose = false;
    if (!parse_hand(args, nargs, 5, hand, loose)) return nullptr;
    try {
        return PyLong_FromUnsignedLongLong(yx::waits(hand, loose));
    } catch (const hupai::InvalidHand& invalid) {
        hupai::binding::set_invalid_hand(invalid.what());
        return nullptr;
    }
}

PyObject* yunxiao_complete(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    yx::Hand hand;
    bool loose = false;
    if (!parse_hand(args, nargs, 5, hand, loose)) return nullptr;
    return PyBool_FromLong(yx::complete(hand, loose));
}

PyObject* yunxiao_you_shape(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    yx::Hand hand;
    bool loose = false;
    if (!parse_hand(args, nargs, 4, hand, loose)) return nullptr;
    return PyBool_FromLong(yx::you_shape(hand));
}

PyObject* yunxiao_you_discards(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    yx::Hand hand;
    bool loose = false;
    if (!parse_hand(args, nargs, 4, hand, loose)) return nullptr;
    return PyLong_FromUnsignedLongLong(yx::you_shape_discards(hand));
}

// (counts, gold, melds, forms): the shanten after each physical discard, 34 ints (127: not held).
PyObject* yunxiao_discard_shanten(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_Format(PyExc_TypeError, "expected 4 positional arguments (counts, gold, melds, forms), got %zd", nargs);
        return nullptr;
    }
    hupai::KindCounts counts{};
    const Read read = hupai::binding::read_counts(args[0], counts.data());
    if (read != Read::kDone) {
        if (read == Read::kNotPlain)
            hupai::binding::set_invalid_hand(std::string("counts must be 34 counts, got ") + Py_TYPE(args[0])->tp_name);
        return nullptr;
    }
    long long gold = 0, melds = 0, forms = 0;
    if (!hupai::binding::read_int(args[1], "gold", 0, hupai::kNumKinds - 1, gold) ||
        !hupai::binding::read_int(args[2], "melds", 0, hupai::kMaxMelds, melds) ||
        !hupai::binding::read_int(args[3], "forms", 1, hupai::kAllForms, forms))
        return nullptr;
    std::int8_t after[hupai::kNumKinds];
    try {
        yx::Hand hand = yx::make_hand(counts, int(gold), nullptr, 0, 0);
        hand.melds = int(melds);  // only their number counts here, not their tiles
        yx::discard_shanten(hand, unsigned(forms), after);
    } catch (const hupai::InvalidHand& invalid) {
        hupai::binding::set_invalid_hand(invalid.what());
        return nullptr;
    }
    PyObject* out = PyTuple_New(hupai::kNumKinds);
    if (out == nullptr) return nullptr;
    for (int kind = 0; kind < hupai::kNumKinds; ++kind) {
        PyObject* value = PyLong_FromLong(after[kind]);  // small ints: cached by CPython, never fails
        if (value == nullptr) {
            Py_DECREF(out);
            return nullptr;
        }
        PyTuple_SET_ITEM(out, kind, value);
    }
    return out;
}

PyMethodDef kYunxiaoMethods[] = {
    {"yunxiao_waits", as_method(yunxiao_waits), METH_FASTCALL,
     "yunxiao_waits(counts, gold, meld_tiles, melds, loose, /)\n--\n\n"
     "Yunxiao waits of a waiting hand (3 * (4 - melds) + 1 physical counts, golds as kind `gold`, 5z as 5z) with\n"
     "`melds` declared melds whose tiles are the bytes `meld_tiles`; `loose`: the buda_loose option. An int,\n"
     "bit k set when physical kind k completes it (see hupai.rules.yunxiao.patterns.hand_waits)."},
    {"yunxiao_complete", as_method(yunxiao_complete), METH_FASTCALL,
     "yunxiao_complete(counts, gold, meld_tiles, melds, loose, /)\n--\n\n"
     "Is the complete-size hand complete in a YX-32..35 form (see hupai.rules.yunxiao.patterns.is_complete)?"},
    {"yunxiao_you_shape", as_method(yunxiao_you_shape), METH_FASTCALL,
     "yunxiao_you_shape(counts, gold, meld_tiles, melds, /)\n--\n\n"
     "Is the hand in 游 shape (YX-25; see hupai.rules.yunxiao.patterns.you_shape_of)?"},
    {"yunxiao_you_discards", as_method(yunxiao_you_discards), METH_FASTCALL,
     "yunxiao_you_discards(counts, gold, meld_tiles, melds, /)\n--\n\n"
     "An int, bit k set when discarding a physical k leaves the 游 shape (see you_shape_discards_of)."},
    {"yunxiao_discard_shanten", as_method(yunxiao_discard_shanten), METH_FASTCALL,
     "yunxiao_discard_shanten(counts, gold, melds, forms, /)\n--\n\n"
     "34 ints: per physical kind held, the shanten after discarding one of it, golds as jokers and 5z as the\n"
     "gold's face (127 for a kind not held); YX-8 room left out."},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace

void register_wild(py::module_& m) {
    m.def(
        "fits_with_jokers",
        [](const py::buffer& counts, int jokers, int sets, int pairs, const py::buffer& room) {
            const hupai::KindCounts natural = read_kind_bytes(counts, "counts");
            const hupai::KindCounts limit = read_kind_bytes(room, "room");
            return hupai::fits_with_jokers(natural, jokers, sets, pairs, limit);
        },
        py::arg("counts"), py::arg("jokers"), py::arg("sets"), py::arg("pairs"), py::arg("room"),
        "Can `counts` plus `jokers` wild tiles form exactly `sets` melds and `pairs` pairs, each joker standing\n"
        "for kind k using one unit of room[k]? (see hupai.analysis.fits_with_jokers)");
    hupai::binding::add_functions(m, kYunxiaoMethods);
    m.def(
        "yunxiao_shanten_rows",
        [](const py::array_t<std::uint8_t, py::array::c_style | py::array::forcecast>& rows, int gold,
           const py::object& melds, int forms) {
            if (rows.ndim() != 2 || rows.shape(1) != hupai::kNumKinds)
                throw hupai::InvalidHand("rows must be uint8[N, 34] physical counts");
            if (forms < 1 || forms > int(hupai::kAllForms))
                throw hupai::InvalidHand("forms must be a non-empty combination of hupai.Forms flags");
            const py::ssize_t n = rows.shape(0);
            // One meld count for every row, or one per row.
            const bool scalar = py::isinstance<py::int_>(melds);
            py::array_t<std::int32_t, py::array::c_style | py::array::forcecast> per_row;
            if (!scalar) {
                per_row = py::array_t<std::int32_t, py::array::c_style | py::array::forcecast>::ensure(melds);
                if (!per_row || per_row.ndim() != 1 || per_row.shape(0) != n)
                    throw hupai::InvalidHand("melds must be an int or one int per row");
            }
            const int every = scalar ? melds.cast<int>() : 0;
            py::array_t<std::int8_t> out(n);
            auto result = out.mutable_unchecked<1>();
            const std::uint8_t* data = rows.data();
            for (py::ssize_t row = 0; row < n; ++row) {
                hupai::KindCounts counts{};
                std::memcpy(counts.data(), data + row * hupai::kNumKinds, hupai::kNumKinds);
                const int count = scalar ? every : per_row.at(row);
                if (count < 0 || count > hupai::kMaxMelds) throw hupai::InvalidHand("melds must be 0..4");
                yx::Hand hand = yx::make_hand(counts, gold, nullptr, 0, 0);
                hand.melds = count;  // only their number counts here, not their tiles
                result(row) = std::int8_t(yx::shanten(hand, unsigned(forms)));
            }
            return out;
        },
        py::arg("rows"), py::arg("gold"), py::arg("melds"), py::arg("forms"),
        "Shanten of physical uint8[N, 34] rows, golds (kind `gold`) as jokers and 5z as the gold's face (YX-6,\n"
        "YX-7), in `forms`; melds an int or one per row. int8[N].");
}
