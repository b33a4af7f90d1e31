// One kernel of the compile-cost benchmark, chosen by macros: EXCHANGE (0 or 1), THREADS, ROUNDS,
// and CHECKED (defined: warden::kernel, which runs the checker; undefined: the same kernel built
// unchecked). The benchmark times compiling this file both ways; the difference is the check.
#include "cost_kernel.hpp"

#ifndef EXCHANGE
#define EXCHANGE 0
#endif
#ifndef THREADS
#define THREADS 1024
#endif
#ifndef ROUNDS
#define ROUNDS 8
#endif

using body = cost::body<EXCHANGE != 0, THREADS, ROUNDS>;
#ifdef CHECKED
constexpr auto probe = warden::kernel<warden::block<THREADS>, warden::in<float>, warden::out<float>>(body{});
#else
constexpr auto probe = warden::dsl::build_kernel<warden::block<THREADS>, warden::in<float>, warden::out<float>>(body{});
#endif

int main() { return sizeof(probe) == 0; }
