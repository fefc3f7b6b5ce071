// The areas of the _core module, each registered by its own register_*.cpp (module.cpp calls them in order).
// A new area adds its function here and one line to module.cpp.
#pragma once

#include <pybind11/pybind11.h>

namespace hupai::binding {

void register_errors(pybind11::module_& m);    // hupai.errors' HupaiError and InvalidHand (pyargs.cpp)
void register_analysis(pybind11::module_& m);  // single-hand calls
void register_batch(pybind11::module_& m);     // numpy batches, the GIL released
void register_wall(pybind11::module_& m);      // the wall shuffle
void register_engine(pybind11::module_& m);    // the engine's claim and turn scans

}  // namespace hupai::binding

void register_wild(pybind11::module_& m);   // the wild-tile search (register_wild.cpp)
void register_zipai(pybind11::module_& m);  // the Wai Huzi core (register_zipai.cpp)
