// Knitted (不搭) number sets of one suit: numbers pairwise 3 or more apart, by size (0..3), built once.
#pragma once

#include <vector>

namespace hupai {

struct KnittedSets {
    std::vector<unsigned> by_size[4];  // 9-bit masks of knitted number sets, by size
    KnittedSets() {
        for (unsigned mask = 0; mask < 512; ++mask) {
            int size = 0, last = -9;
            bool ok = true;
            for (int n = 0; n < 9; ++n) {
                if (!(mask >> n & 1)) continue;
                ok = ok && n - last >= 3;
                last = n;
                ++size;
            }
            if (ok) by_size[size].push_back(mask);
        }
    }
    static const KnittedSets& get() {
        static const KnittedSets sets;
        return sets;
    }
};

}  // namespace hupai
