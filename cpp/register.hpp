// The areas of the _core module, each registered by its own register_*.cpp (module.cpp calls them in order).
// A new area adds its function here and one line to module.cpp.
#pragma once

#include <pybind11/pybind11.h>

#include <thread>
#include <vector>

namespace hupai::binding {

// Runs work(0) .. work(workers - 1), each on its own thread when there are several (the batch entry points;
// the caller has released the GIL and split the rows).
template <typename Work>
void run_workers(int workers, const Work& work) {
    if (workers == 1) {
        work(0);
        return;
    }
    std::vector<std::thread> pool;
    pool.reserve(static_cast<size_t>(workers));
    for (int w = 0; w < workers; ++w) pool.emplace_back(work, w);
    for (auto& thread : pool) thread.join();
}

void register_errors(pybind11::module_& m);    // hupai.errors' HupaiError and InvalidHand (pyargs.cpp)
void register_analysis(pybind11::module_& m);  // single-hand calls
void register_batch(pybind11::module_& m);     // numpy batches, the GIL released
void register_wall(pybind11::module_& m);      // the wall shuffle
void register_engine(pybind11::module_& m);    // the engine's claim and turn scans
void register_turn(pybind11::module_& m);      // the mahjong flow's lean turn (register_turn.cpp)
void register_chain(pybind11::module_& m);     // the bots' plain turns and streams (register_chain.cpp)
void register_features(pybind11::module_& m);  // hupai.env's features of N tables (register_features.cpp)
void register_snapshot(pybind11::module_& m);  // a snapshot's actions checked in one pass (register_snapshot.cpp)

}  // namespace hupai::binding

void register_wild(pybind11::module_& m);   // the wild-tile search (register_wild.cpp)
void register_zipai(pybind11::module_& m);  // the Wai Huzi core (register_zipai.cpp)
