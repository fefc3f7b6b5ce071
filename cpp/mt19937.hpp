// CPython's random.Random generator (Modules/_randommodule.c: MT19937, seeded by init_by_array on an int's 32-bit
// words, random() = 53 bits from two outputs), on a state held in a plain buffer the bots own (hupai.bots'
// _Stream, a bytearray): the core plays a bot's turns from the same stream its Python side draws from, so both paths
// give the same choices. The buffer: 624 state words then the index (0..624), each a native uint32 (what
// getstate()'s 625 ints hold). Words are read and written with memcpy (the buffer is a char array).
#pragma once

#include <cstdint>
#include <cstring>

namespace hupai::mt {

constexpr int kWords = 624;
constexpr int kShift = 397;
constexpr std::size_t kStateBytes = (kWords + 1) * sizeof(std::uint32_t);  // the words, then the index

inline std::uint32_t load(const std::uint8_t* state, int at) {
    std::uint32_t value;
    std::memcpy(&value, state + at * sizeof(std::uint32_t), sizeof value);
    return value;
}

inline void store(std::uint8_t* state, int at, std::uint32_t value) {
    std::memcpy(state + at * sizeof(std::uint32_t), &value, sizeof value);
}

// Whether a buffer of kStateBytes is a state the generator can run on (its index in 0..624).
inline bool valid(const std::uint8_t* state) { return load(state, kWords) <= std::uint32_t(kWords); }

// genrand_uint32: the next 32-bit output (the state must be valid).
inline std::uint32_t next(std::uint8_t* state) {
    constexpr std::uint32_t kMatrix = 0x9908b0dfU, kUpper = 0x80000000U, kLower = 0x7fffffffU;
    std::uint32_t index = load(state, kWords);
    if (index >= std::uint32_t(kWords)) {
        std::uint32_t mt[kWords];
        std::memcpy(mt, state, sizeof mt);
        int k = 0;
        for (; k < kWords - kShift; ++k) {
            const std::uint32_t y = (mt[k] & kUpper) | (mt[k + 1] & kLower);
            mt[k] = mt[k + kShift] ^ (y >> 1) ^ ((y & 1U) != 0 ? kMatrix : 0U);
        }
        for (; k < kWords - 1; ++k) {
            const std::uint32_t y = (mt[k] & kUpper) | (mt[k + 1] & kLower);
            mt[k] = mt[k + (kShift - kWords)] ^ (y >> 1) ^ ((y & 1U) != 0 ? kMatrix : 0U);
        }
        const std::uint32_t y = (mt[kWords - 1] & kUpper) | (mt[0] & kLower);
        mt[kWords - 1] = mt[kShift - 1] ^ (y >> 1) ^ ((y & 1U) != 0 ? kMatrix : 0U);
        std::memcpy(state, mt, sizeof mt);
        index = 0;
    }
    std::uint32_t y = load(state, int(index));
    store(state, kWords, index + 1);
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= y >> 18;
    return y;
}

// random_random: a double in [0, 1) from 53 bits of two outputs.
inline double random(std::uint8_t* state) {
    const std::uint32_t a = next(state) >> 5, b = next(state) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

// int(random() * n) for n >= 1: the pick Python's bots make (uniform, and a tie break).
inline long pick(std::uint8_t* state, long n) { return long(random(state) * double(n)); }

// init_by_array: the state random.seed(n) makes from the 32-bit words of abs(n), least significant first (one
// word 0 for n = 0).
inline void seed(std::uint8_t* state, const std::uint32_t* key, std::size_t length) {
    std::uint32_t mt[kWords];
    mt[0] = 19650218U;
    for (int i = 1; i < kWords; ++i) mt[i] = 1812433253U * (mt[i - 1] ^ (mt[i - 1] >> 30)) + std::uint32_t(i);
    std::size_t i = 1, j = 0;
    for (std::size_t k = std::size_t(kWords) > length ? std::size_t(kWords) : length; k != 0; --k) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + std::uint32_t(j);
        ++i;
        ++j;
        if (i >= std::size_t(kWords)) {
            mt[0] = mt[kWords - 1];
            i = 1;
        }
        if (j >= length) j = 0;
    }
    for (int k = kWords - 1; k != 0; --k) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - std::uint32_t(i);
        ++i;
        if (i >= std::size_t(kWords)) {
            mt[0] = mt[kWords - 1];
            i = 1;
        }
    }
    mt[0] = 0x80000000U;
    std::memcpy(state, mt, sizeof mt);
    store(state, kWords, std::uint32_t(kWords));
}

}  // namespace hupai::mt
