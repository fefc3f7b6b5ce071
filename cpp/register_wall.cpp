// The wall shuffle (hupai.game.state.wall): numpy's PCG64 and Fisher-Yates, in wall.cpp.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

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
            const std::vector<std::uint32_t> entropy = seed_words(seed);
            shuffle_tiles(tiles, entropy);
            return tiles;
        },
        py::arg("tiles"), py::arg("seed"),
        "The tiles in the order hupai.game.state.wall.shuffle gives them (numpy's PCG64 seeded with `seed`, then\n"
        "Fisher-Yates from the end with a multiply-shift pick).");
    m.def(
        "count_kinds",
        [](py::handle tiles, Py_ssize_t start, Py_ssize_t stop, int kinds) {
            // The deal's counts without a Python loop over the tiles (one crossing per seat, not 13 increments).
            if (kinds < 1 || kinds > 64) throw InvalidHand("kinds must be 1..64");
            const auto sequence =
                py::reinterpret_steal<py::object>(PySequence_Fast(tiles.ptr(), "tiles must be a sequence"));
            if (!sequence) throw py::error_already_set();
            const Py_ssize_t size = PySequence_Fast_GET_SIZE(sequence.ptr());
            if (start < 0 || stop < start || stop > size)
                throw InvalidHand("count_kinds: start..stop is not within the tiles");
            std::uint8_t counts[64] = {};
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
        "bytes of `kinds` counts: how many of tiles[start:stop] are of each kind (each an int in 0..kinds-1).");
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
