// The wall shuffle (hupai.game.state.wall): numpy's PCG64 and Fisher-Yates, in wall.cpp.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "pyargs.hpp"
#include "register.hpp"
#include "wall.hpp"

namespace py = pybind11;

namespace hupai::binding {

namespace {

// A non-negative seed (an int or numpy integer, never a bool) as SeedSequence reads it: 32-bit words, least
// significant first (0 is one word 0).
std::vector<std::uint32_t> seed_words(py::handle seed_arg) {
    if (PyBool_Check(seed_arg.ptr())) throw InvalidHand("a seed must be a non-negative int, got bool");
    PyObject* index = PyNumber_Index(seed_arg.ptr());
    if (index == nullptr) {
        PyErr_Clear();
        throw InvalidHand(std::string("a seed must be a non-negative int, got ") + Py_TYPE(seed_arg.ptr())->tp_name);
    }
    const auto seed = py::reinterpret_steal<py::int_>(index);
    const py::int_ zero(0);
    if (PyObject_RichCompareBool(seed.ptr(), zero.ptr(), Py_LT) == 1)
        throw InvalidHand("a seed must be a non-negative int");
    std::vector<std::uint32_t> words;
    py::int_ rest = seed;
    const py::int_ mask(0xFFFFFFFFu), shift(32);
    do {
        words.push_back(py::cast<std::uint32_t>(rest & mask));
        rest = py::int_(rest >> shift);
    } while (PyObject_RichCompareBool(rest.ptr(), zero.ptr(), Py_GT) == 1);
    return words;
}

}  // namespace

void register_wall(py::module_& m) {
    m.def(
        "shuffle_tiles",
        [](std::vector<int> tiles, py::handle seed) {
            // Checked before the shuffle: the result is bytes, one byte a tile (a kind in both flows).
            for (const int tile : tiles)
                if (tile < 0 || tile > 255) throw InvalidHand("shuffle_tiles: a tile must be an int in 0..255");
            const std::vector<std::uint32_t> entropy = seed_words(seed);
            shuffle_tiles(tiles, entropy);
            // The wall itself (hupai.game.state.wall.Wall.tiles): filled here, not made from a list of ints.
            PyObject* out = PyBytes_FromStringAndSize(nullptr, Py_ssize_t(tiles.size()));
            if (out == nullptr) throw py::error_already_set();
            auto* bytes = reinterpret_cast<std::uint8_t*>(PyBytes_AS_STRING(out));
            for (std::size_t at = 0; at < tiles.size(); ++at) bytes[at] = std::uint8_t(tiles[at]);
            return py::reinterpret_steal<py::object>(out);
        },
        py::arg("tiles"), py::arg("seed"),
        "New bytes of the tiles (each 0..255) in the order hupai.game.state.wall.shuffle gives them (numpy's\n"
        "PCG64 seeded with `seed`, then Fisher-Yates from the end with a multiply-shift pick).");
    m.def(
        "count_kinds",
        [](py::handle tiles, Py_ssize_t start, Py_ssize_t stop, int kinds) {
            // The deal's counts without a Python loop over the tiles (one crossing per seat, not 13 increments).
            if (kinds < 1 || kinds > 64) throw InvalidHand("kinds must be 1..64");
            std::uint8_t counts[64] = {};
            PyObject* raw = tiles.ptr();
            if (PyByteArray_CheckExact(raw) || PyBytes_CheckExact(raw)) {
                // A wall (bytes) or a bytearray: read in place, no list of ints made (nothing below runs Python
                // code, so the buffer cannot change while it is read).
                const Py_ssize_t size = PyByteArray_CheckExact(raw) ? PyByteArray_GET_SIZE(raw) : PyBytes_GET_SIZE(raw);
                if (start < 0 || stop < start || stop > size)
                    throw InvalidHand("count_kinds: start..stop is not within the tiles");
                const auto* bytes = reinterpret_cast<const std::uint8_t*>(
                    PyByteArray_CheckExact(raw) ? PyByteArray_AS_STRING(raw) : PyBytes_AS_STRING(raw));
                for (Py_ssize_t at = start; at < stop; ++at) {
                    const std::uint8_t kind = bytes[at];
                    if (kind >= kinds)
                        throw InvalidHand("a tile=" + std::to_string(kind) + " is out of range (0.." +
                                          std::to_string(kinds - 1) + ")");
                    if (counts[kind] == 255) throw InvalidHand("count_kinds: more than 255 tiles of a kind");
                    ++counts[kind];
                }
                return py::bytes(reinterpret_cast<const char*>(counts), static_cast<std::size_t>(kinds));
            }
            const auto sequence =
                py::reinterpret_steal<py::object>(PySequence_Fast(raw, "tiles must be a sequence"));
            if (!sequence) throw py::error_already_set();
            const Py_ssize_t size = PySequence_Fast_GET_SIZE(sequence.ptr());
            if (start < 0 || stop < start || stop > size)
                throw InvalidHand("count_kinds: start..stop is not within the tiles");
            PyObject** items = PySequence_Fast_ITEMS(sequence.ptr());
            for (Py_ssize_t at = start; at < stop; ++at) {
                long long kind = 0;
                if (!read_int(items[at], "a tile", 0, kinds - 1, kind)) throw py::error_already_set();
                if (counts[kind] == 255) throw InvalidHand("count_kinds: more than 255 tiles of a kind");
                ++counts[kind];
            }
            return py::bytes(reinterpret_cast<const char*>(counts), static_cast<std::size_t>(kinds));
        },
        py::arg("tiles"), py::arg("start"), py::arg("stop"), py::arg("kinds"),
        "bytes of `kinds` counts: how many of tiles[start:stop] are of each kind (each an int in 0..kinds-1; tiles a\n"
        "sequence of ints, or a bytearray or bytes read in place).");
    m.def(
        "pcg64_raw",
        [](py::handle seed, int count) {
            if (count < 0) throw InvalidHand("count must be non-negative");
            Pcg64 generator(seed_words(seed));
            std::vector<std::uint64_t> out(static_cast<std::size_t>(count));
            for (auto& value : out) value = generator.next();
            return out;
        },
        py::arg("seed"), py::arg("count"), "The first `count` raw outputs of np.random.PCG64(seed) (for tests).");
}

}  // namespace hupai::binding
