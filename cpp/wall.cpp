#include "wall.hpp"

#include <utility>

namespace hupai {

namespace {

// numpy's SeedSequence (numpy/random/bit_generator.pyx): a pool of four 32-bit words mixed from the entropy,
// then hashed into the requested state words.
constexpr std::uint32_t kInitA = 0x43b0d7e5, kMultA = 0x931e8875;
constexpr std::uint32_t kInitB = 0x8b51f9dd, kMultB = 0x58f38ded;
constexpr std::uint32_t kMixMultL = 0xca01f9dd, kMixMultR = 0x4973f715;
constexpr int kPoolSize = 4;
constexpr int kXShift = 16;

std::uint32_t hashmix(std::uint32_t value, std::uint32_t& hash_const) {
    value ^= hash_const;
    hash_const *= kMultA;
    value *= hash_const;
    value ^= value >> kXShift;
    return value;
}

std::uint32_t mix(std::uint32_t x, std::uint32_t y) {
    std::uint32_t result = kMixMultL * x - kMixMultR * y;
    result ^= result >> kXShift;
    return result;
}

// generate_state(4, uint64) of SeedSequence(entropy), as 8 little-endian 32-bit words.
void seed_sequence_state(const std::vector<std::uint32_t>& entropy, std::uint32_t (&state)[8]) {
    std::uint32_t pool[kPoolSize];
    std::uint32_t hash_const = kInitA;
    for (int i = 0; i < kPoolSize; ++i)
        pool[i] = hashmix(i < int(entropy.size()) ? entropy[i] : 0u, hash_const);
    for (int src = 0; src < kPoolSize; ++src)
        for (int dst = 0; dst < kPoolSize; ++dst)
            if (src != dst) pool[dst] = mix(pool[dst], hashmix(pool[src], hash_const));
    for (std::size_t src = kPoolSize; src < entropy.size(); ++src)
        for (int dst = 0; dst < kPoolSize; ++dst) pool[dst] = mix(pool[dst], hashmix(entropy[src], hash_const));
    std::uint32_t out_const = kInitB;
    for (int i = 0; i < 8; ++i) {
        std::uint32_t value = pool[i % kPoolSize];
        value ^= out_const;
        out_const *= kMultB;
        value *= out_const;
        value ^= value >> kXShift;
        state[i] = value;
    }
}

constexpr unsigned __int128 kPcgMultiplier =
    (static_cast<unsigned __int128>(0x2360ED051FC65DA4ULL) << 64) | 0x4385DF649FCCF645ULL;

}  // namespace

Pcg64::Pcg64(const std::vector<std::uint32_t>& entropy) {
    std::uint32_t words[8];
    seed_sequence_state(entropy, words);
    std::uint64_t seed[4];
    for (int i = 0; i < 4; ++i) seed[i] = std::uint64_t(words[2 * i]) | (std::uint64_t(words[2 * i + 1]) << 32);
    // pcg64_set_seed: initstate = seed[0]:seed[1], initseq = seed[2]:seed[3] (high word first).
    const unsigned __int128 initstate = (static_cast<unsigned __int128>(seed[0]) << 64) | seed[1];
    const unsigned __int128 initseq = (static_cast<unsigned __int128>(seed[2]) << 64) | seed[3];
    increment_ = (initseq << 1) | 1u;
    state_ = 0;
    next();
    state_ += initstate;
    next();
}

std::uint64_t Pcg64::next() {
    state_ = state_ * kPcgMultiplier + increment_;
    const std::uint64_t high = std::uint64_t(state_ >> 64), low = std::uint64_t(state_);
    const unsigned rotation = unsigned(high >> 58);
    const std::uint64_t value = high ^ low;
    return (value >> rotation) | (value << ((64 - rotation) & 63));
}

void shuffle_tiles(std::vector<int>& tiles, const std::vector<std::uint32_t>& entropy) {
    const std::size_t n = tiles.size();
    if (n < 2) return;
    Pcg64 generator(entropy);
    for (std::size_t i = n - 1; i > 0; --i) {
        const std::uint64_t bound = i + 1;
        const auto j = std::size_t((static_cast<unsigned __int128>(generator.next()) * bound) >> 64);
        std::swap(tiles[i], tiles[j]);
    }
}

}  // namespace hupai
