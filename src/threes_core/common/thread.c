/* thread.c - see thread.h. */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* nanosleep, clock_gettime */
#endif
#include "common/thread.h"

#include <stdint.h>


#if defined(_WIN32)
#include <process.h> /* _beginthreadex: a thread the C runtime knows */

static unsigned __stdcall thread_main(void *arg) {
  th_thread *t = (th_thread *)arg;
  t->fn(t->arg);
  return 0;
}

int th_thread_start(th_thread *t, th_thread_fn fn, void *arg) {
  t->fn = fn;
  t->arg = arg;
  uintptr_t h = _beginthreadex(NULL, 0, thread_main, t, 0, NULL);
  t->handle = (HANDLE)h;
  return h ? 0 : -1;
}

void th_thread_join(th_thread *t) {
  WaitForSingleObject(t->handle, INFINITE);
  CloseHandle(t->handle);
}

void th_mutex_init(th_mutex *m) { InitializeSRWLock(m); }
void th_mutex_lock(th_mutex *m) { AcquireSRWLockExclusive(m); }
void th_mutex_unlock(th_mutex *m) { ReleaseSRWLockExclusive(m); }
void th_mutex_destroy(th_mutex *m) { (void)m; /* an SRW lock holds no resource */ }

void th_cond_init(th_cond *c) { InitializeConditionVariable(c); }
void th_cond_wait(th_cond *c, th_mutex *m) { SleepConditionVariableSRW(c, m, INFINITE, 0); }
void th_cond_signal(th_cond *c) { WakeConditionVariable(c); }
void th_cond_broadcast(th_cond *c) { WakeAllConditionVariable(c); }
void th_cond_destroy(th_cond *c) { (void)c; }

void th_sleep_ms(int ms) { Sleep((DWORD)ms); }

uintptr_t th_thread_token(void) { return (uintptr_t)GetCurrentThreadId(); }

double th_monotonic_seconds(void) {
  LARGE_INTEGER f, c;
  QueryPerformanceFrequency(&f);
  QueryPerformanceCounter(&c);
  return (double)c.QuadPart / (double)f.QuadPart;
}

#else
#include <time.h>

static void *thread_main(void *arg) {
  th_thread *t = (th_thread *)arg;
  t->fn(t->arg);
  return NULL;
}

int th_thread_start(th_thread *t, th_thread_fn fn, void *arg) {
  t->fn = fn;
  t->arg = arg;
  return pthread_create(&t->tid, NULL, thread_main, t) == 0 ? 0 : -1;
}

void th_thread_join(th_thread *t) { pthread_join(t->tid, NULL); }

void th_mutex_init(th_mutex *m) { pthread_mutex_init(m, NULL); }
void th_mutex_lock(th_mutex *m) { pthread_mutex_lock(m); }
void th_mutex_unlock(th_mutex *m) { pthread_mutex_unlock(m); }
void th_mutex_destroy(th_mutex *m) { pthread_mutex_destroy(m); }

void th_cond_init(th_cond *c) { pthread_cond_init(c, NULL); }
void th_cond_wait(th_cond *c, th_mutex *m) { pthread_cond_wait(c, m); }
void th_cond_signal(th_cond *c) { pthread_cond_signal(c); }
void th_cond_broadcast(th_cond *c) { pthread_cond_broadcast(c); }
void th_cond_destroy(th_cond *c) { pthread_cond_destroy(c); }

void th_sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

uintptr_t th_thread_token(void) {
  static _Thread_local char here; /* one per thread: its address tells the threads apart */
  return (uintptr_t)&here;
}

double th_monotonic_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
#endif

