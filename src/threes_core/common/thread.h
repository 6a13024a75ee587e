/* thread.h - the C core's threads layer (internal): native threads, a mutex
 * and a condition variable, on POSIX threads or Win32 threads, chosen here
 * and nowhere else. Nothing allocates: the types are plain values the caller
 * keeps (a th_thread must stay where it is until joined).
 *
 *   th_thread_start(t, fn, arg)  runs fn(arg) on a new thread; 0 on success
 *   th_thread_join(t)            waits for it
 *   th_mutex_*, th_cond_*        init, lock/unlock, wait/signal/broadcast,
 *                                destroy
 *   th_sleep_ms(ms)              sleeps about ms milliseconds
 *   th_monotonic_seconds()       a clock that never goes back (seconds)
 *   th_thread_token()            a number that tells the calling thread from
 *                                every other thread alive
 *   th_cpu_relax()               a spin-wait hint (pause / yield)
 *
 * On Windows th_sleep_ms(1) sleeps up to a timer tick (about 15.6 ms by
 * default), so th_run_parts with a stop hook may return up to that much after
 * its last part ends there (results are unchanged).
 */
#ifndef THREES_COMMON_THREAD_H
#define THREES_COMMON_THREAD_H

#if defined(_WIN32)
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#else
#include <pthread.h>
#endif

#include <stdint.h>

typedef void (*th_thread_fn)(void *arg);

typedef struct {
  th_thread_fn fn;
  void *arg;
#if defined(_WIN32)
  HANDLE handle;
#else
  pthread_t tid;
#endif
} th_thread;

#if defined(_WIN32)
typedef SRWLOCK th_mutex;
typedef CONDITION_VARIABLE th_cond;
#else
typedef pthread_mutex_t th_mutex;
typedef pthread_cond_t th_cond;
#endif

int th_thread_start(th_thread *t, th_thread_fn fn, void *arg);
void th_thread_join(th_thread *t);

void th_mutex_init(th_mutex *m);
void th_mutex_lock(th_mutex *m);
void th_mutex_unlock(th_mutex *m);
void th_mutex_destroy(th_mutex *m);

void th_cond_init(th_cond *c);
void th_cond_wait(th_cond *c, th_mutex *m);
void th_cond_signal(th_cond *c);
void th_cond_broadcast(th_cond *c);
void th_cond_destroy(th_cond *c);

void th_sleep_ms(int ms);
double th_monotonic_seconds(void);
uintptr_t th_thread_token(void);
/* A spin-wait hint, inline (it sits in spin loops): x86's pause (every x86
 * has it, SIMD build or not), aarch64's yield, nothing elsewhere. */
#if defined(__SSE2__) || defined(_M_X64) || defined(_M_IX86)
#include <emmintrin.h>
static inline void th_cpu_relax(void) { _mm_pause(); }
#elif defined(_M_ARM64)
#include <intrin.h>
static inline void th_cpu_relax(void) { __yield(); }
#elif (defined(__GNUC__) || defined(__clang__)) && defined(__aarch64__)
static inline void th_cpu_relax(void) { __asm__ __volatile__("yield"); }
#else
static inline void th_cpu_relax(void) {}
#endif

#endif
