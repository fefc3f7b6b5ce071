// The wall shuffle of hupai.game.state.wall, in C++ for speed: numpy's PCG64 bit generator seeded exactly as
// ``np.random.PCG64(seed)`` seeds it (through SeedSequence), then Fisher-Yates from the end with Lemire's
// multiply-shift. The same seed gives the same wall as the documented Python algorithm, bit for bit (the tests
// compare the raw stream with numpy's and the walls with the Python version).
#pragma once

#include <cstdint>
#include <vector>

namespace hupai {

// The 128-bit PCG "XSL-RR" generator (numpy's PCG64), seeded from a SeedSequence over ``entropy`` (the seed's
// 32-bit words, least significant first; the seed 0 is one word 0).
class Pcg64 {
  public:
    explicit Pcg64(const std::vector<std::uint32_t>& entropy);
    std::uint64_t next();

  private:
    unsigned __int128 state_ = 0;
    unsigned __int128 increment_ = 0;
};

// Shuffle ``tiles`` in place, as hupai.game.state.wall.shuffle does.
void shuffle_tiles(std::vector<int>& tiles, const std::vector<std::uint32_t>& entropy);

}  // namespace hupai
