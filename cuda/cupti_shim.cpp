// CUPTI shim for the `cupti` timing mode: the GPU start and end timestamps of the work that one solution() call
// launches, on every stream, and how long the GPU was busy with it. The harness pushes an external correlation id
// (the iteration number) before calling solution() and pops it after; CUPTI then tags every CUDA API call made in
// between, and so every kernel, memcpy and memset those calls launched, with that id. The tag is per host thread, so
// the harness also marks each call's window on CUPTI's clock (kb_cupti_window, from the idle GPU before the call to
// the idle GPU after it): untagged work that ran in a window, launched by another thread of the solution's, belongs
// to that call too. Other untagged work (L2 flush, padding, outside any window) is left out of the spans, and the
// last read's is kept apart for the stream audit of `events` timing, which reads it with kb_cupti_untagged. While
// kb_cupti_keep_launches is on (the counters pass), each kernel's name and launch configuration is kept too. And the
// harness holds CUPTI's one callback subscriber (kb_cupti_claim, at the end), so that solution code cannot. Compiled
// by src/compile/cupti-shim.ts, called through src/native/cupti.ts. Every entry point returns a CUptiResult (0 =
// success).
#include <cupti.h>
#include <cxxabi.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace {

const CUpti_ExternalCorrelationKind kIterationKind = CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0;

// GPU work that can belong to a solution, then what tags it: CUPTI emits an external correlation record only in
// front of a runtime or driver API record, so those kinds must be on although their records are unused. Both are
// on: a kernel carries the correlation id of the call that launched it, which is a runtime call for `<<<>>>` and a
// driver call for NVRTC kernels launched with cuLaunchKernel.
const CUpti_ActivityKind kKinds[] = {
    CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,  // not _KERNEL, which serializes every kernel on the GPU
    CUPTI_ACTIVITY_KIND_MEMCPY,
    CUPTI_ACTIVITY_KIND_MEMSET,
    CUPTI_ACTIVITY_KIND_RUNTIME,
    CUPTI_ACTIVITY_KIND_DRIVER,
    CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION,
};

const size_t kBufferBytes = 8u << 20;
const size_t kBufferAlignment = 8;  // what CUPTI requires of activity buffers

using Interval = std::pair<uint64_t, uint64_t>;

// Time in which at least one of `intervals` ran: work overlapping on several streams counts once, and the gaps
// between intervals (the GPU waiting for the host to launch the next kernel) not at all. Sorts `intervals`.
uint64_t covered(std::vector<Interval>& intervals) {
  std::sort(intervals.begin(), intervals.end());
  uint64_t total = 0;
  uint64_t coveredUntil = 0;
  for (const auto& [from, to] : intervals) {
    uint64_t begin = std::max(from, coveredUntil);
    if (to > begin) total += to - begin;
    coveredUntil = std::max(coveredUntil, to);
  }
  return total;
}

// The GPU work of one API call, or of every call of one iteration: each kernel's, copy's or memset's interval, and
// apart the intervals of its copies that cross the GPU's edge (to or from the host, or another GPU), whose time is the
// bus's and the host's as much as this GPU's.
struct Work {
  std::vector<Interval> intervals;
  std::vector<Interval> offDeviceCopies;

  void add(const Work& other) {
    intervals.insert(intervals.end(), other.intervals.begin(), other.intervals.end());
    offDeviceCopies.insert(offDeviceCopies.end(), other.offDeviceCopies.begin(), other.offDeviceCopies.end());
  }

  uint64_t start() const {
    uint64_t first = UINT64_MAX;
    for (const auto& interval : intervals) first = std::min(first, interval.first);
    return first;
  }

  uint64_t end() const {
    uint64_t last = 0;
    for (const auto& interval : intervals) last = std::max(last, interval.second);
    return last;
  }

  uint64_t busy() { return covered(intervals); }
  uint64_t offDeviceCopyBusy() { return covered(offDeviceCopies); }
};

// A copy between two places of this GPU's memory (device, array) runs at the GPU's own speed; any other kind moves
// bytes over PCIe or NVLink.
bool crossesDeviceEdge(uint8_t copyKind) {
  switch (copyKind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA:
      return false;
    default:
      return true;
  }
}

// What a kernel was launched with: name, then grid x, y, z, block x, y, z, registers per thread, static and dynamic
// shared memory per block (bytes). `start` orders a call's operations, `correlationId` and `graphNodeId` name a
// launch. A memset or a copy of the call is kept too (kind, no name or configuration): the range profiler may make
// it a range of its own.
enum LaunchKind : int32_t { kKernel = 0, kMemset = 1, kMemcpy = 2 };
struct Launch {
  uint64_t start;
  uint32_t correlationId;
  uint64_t graphNodeId;
  LaunchKind kind;
  std::string name;
  int32_t config[9];
};

// Shared between the buffer-completed callback (which CUPTI may run on its own thread) and the entry points. Records
// of one API call can arrive in any order and in different buffers, so both halves of the join are kept until read.
// Never destroyed: CUPTI delivers its last buffers while the process exits, after static objects are gone.
std::mutex& mutex = *new std::mutex;
auto& iterationByCorrelation = *new std::unordered_map<uint32_t, uint64_t>;  // correlationId -> pushed id
auto& workByCorrelation = *new std::unordered_map<uint32_t, Work>;           // correlationId -> its GPU work
auto& workByIteration = *new std::map<uint64_t, Work>;                       // joined, not yet read; ordered by id
// Each call's window on CUPTI's clock (start, end), by iteration, until the next read.
auto& windowByIteration = *new std::map<uint64_t, Interval>;
// The intervals of the last read's untagged work that no window claimed, until kb_cupti_untagged or the next read.
auto& untaggedIntervals = *new std::vector<Interval>;
uint64_t lostRecords = 0;
bool keepLaunches = false;
auto& launchesByCorrelation = *new std::unordered_map<uint32_t, std::vector<Launch>>;
auto& launchesByIteration = *new std::map<uint64_t, std::vector<Launch>>;  // joined, not yet read
auto& readLaunches = *new std::vector<Launch>;                            // the id kb_cupti_launches read last

// The name as written in the source, as ncu shows it (`vectorAdd4(const float4 *, …)`); an extern "C" kernel's
// name is not mangled and stays as it is.
std::string demangled(const char* name) {
  if (name == nullptr) return "";
  int status = 0;
  char* readable = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  std::string result = status == 0 && readable ? readable : name;
  std::free(readable);
  return result;
}

void addLaunch(const CUpti_ActivityKernel10* kernel) {
  if (!keepLaunches) return;
  launchesByCorrelation[kernel->correlationId].push_back(Launch{
      kernel->start,
      kernel->correlationId,
      kernel->graphNodeId,
      kKernel,
      demangled(kernel->name),
      {kernel->gridX, kernel->gridY, kernel->gridZ, kernel->blockX, kernel->blockY, kernel->blockZ,
       kernel->registersPerThread, kernel->staticSharedMemory, kernel->dynamicSharedMemory},
  });
}

template <typename Record>
void addOperation(const Record* record, LaunchKind kind) {
  if (!keepLaunches) return;
  launchesByCorrelation[record->correlationId].push_back(
      Launch{record->start, record->correlationId, record->graphNodeId, kind, "", {}});
}

template <typename Record>
void addWork(const Record* record, bool offDeviceCopy = false) {
  // No timestamps: CUPTI ran out of device memory for them, or a forced flush returned the record unfinished.
  if (record->start == 0 || record->end < record->start) {
    ++lostRecords;
    return;
  }
  // One API call may launch several kernels: a CUDA graph launch.
  Work& work = workByCorrelation[record->correlationId];
  work.intervals.emplace_back(record->start, record->end);
  if (offDeviceCopy) work.offDeviceCopies.emplace_back(record->start, record->end);
}

void addRecord(const CUpti_Activity* record) {
  switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      addWork(reinterpret_cast<const CUpti_ActivityKernel10*>(record));
      addLaunch(reinterpret_cast<const CUpti_ActivityKernel10*>(record));
      break;
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
      auto copy = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
      addWork(copy, crossesDeviceEdge(copy->copyKind));
      addOperation(copy, kMemcpy);
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET:
      addWork(reinterpret_cast<const CUpti_ActivityMemset4*>(record));
      addOperation(reinterpret_cast<const CUpti_ActivityMemset4*>(record), kMemset);
      break;
    case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: {
      auto correlation = reinterpret_cast<const CUpti_ActivityExternalCorrelation*>(record);
      if (correlation->externalKind == kIterationKind) {
        iterationByCorrelation[correlation->correlationId] = correlation->externalId;
      }
      break;
    }
    default:
      break;
  }
}

void CUPTIAPI bufferRequested(uint8_t** buffer, size_t* size, size_t* maxNumRecords) {
  // A null buffer makes CUPTI drop records, which it counts: kb_cupti_lost reports them.
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(kBufferAlignment, kBufferBytes));
  *size = *buffer ? kBufferBytes : 0;
  *maxNumRecords = 0;
}

void CUPTIAPI bufferCompleted(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t validSize) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    CUpti_Activity* record = nullptr;
    while (cuptiActivityGetNextRecord(buffer, validSize, &record) == CUPTI_SUCCESS) addRecord(record);
    size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(nullptr, 0, &dropped) == CUPTI_SUCCESS) lostRecords += dropped;
  }
  std::free(buffer);
}

// Adds `interval` of untagged work, as `into` (all work, or the copies off the device), to every call whose window it
// ran in; whether any did. Caller holds the mutex.
bool claimByWindows(const Interval& interval, std::vector<Interval> Work::*into) {
  bool claimed = false;
  for (const auto& [id, window] : windowByIteration) {
    bool overlaps = interval.first < window.second && interval.second > window.first;
    if (overlaps) (workByIteration[id].*into).push_back(interval);
    claimed = claimed || overlaps;
  }
  return claimed;
}

// Moves every joined (iteration, work) pair into workByIteration. Called only after a flush that followed a device
// synchronize, so what stays unjoined never will be: work launched outside push/pop, or API calls inside it that
// launched nothing. Caller holds the mutex.
void joinAndDiscardTheRest() {
  untaggedIntervals.clear();
  for (const auto& [correlationId, work] : workByCorrelation) {
    auto iteration = iterationByCorrelation.find(correlationId);
    if (iteration != iterationByCorrelation.end()) {
      workByIteration[iteration->second].add(work);
      continue;
    }
    // Untagged: another thread's launch during a call belongs to the call whose window it ran in.
    for (const auto& interval : work.intervals) {
      if (!claimByWindows(interval, &Work::intervals)) untaggedIntervals.push_back(interval);
    }
    for (const auto& copy : work.offDeviceCopies) claimByWindows(copy, &Work::offDeviceCopies);
  }
  windowByIteration.clear();
  std::sort(untaggedIntervals.begin(), untaggedIntervals.end());
  for (auto& [correlationId, launches] : launchesByCorrelation) {
    auto iteration = iterationByCorrelation.find(correlationId);
    if (iteration == iterationByCorrelation.end()) continue;
    auto& joined = launchesByIteration[iteration->second];
    joined.insert(joined.end(), launches.begin(), launches.end());
  }
  workByCorrelation.clear();
  launchesByCorrelation.clear();
  iterationByCorrelation.clear();
}

// Disables every kind, even after a failure; returns the first failure.
CUptiResult disableAll() {
  CUptiResult status = CUPTI_SUCCESS;
  for (CUpti_ActivityKind kind : kKinds) {
    CUptiResult disabled = cuptiActivityDisable(kind);
    if (status == CUPTI_SUCCESS) status = disabled;
  }
  return status;
}

}  // namespace

// Starts collecting, with nothing left over from an earlier session.
extern "C" int kb_cupti_start(void) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    iterationByCorrelation.clear();
    workByCorrelation.clear();
    workByIteration.clear();
    windowByIteration.clear();
    untaggedIntervals.clear();
    launchesByCorrelation.clear();
    launchesByIteration.clear();
    lostRecords = 0;
  }
  CUptiResult status = cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted);
  for (CUpti_ActivityKind kind : kKinds) {
    if (status != CUPTI_SUCCESS) break;
    status = cuptiActivityEnable(kind);
  }
  // Half-started tracing would slow every later CUDA call: leave nothing enabled.
  if (status != CUPTI_SUCCESS) disableAll();
  return status;
}

// Tags the GPU work of every CUDA call this thread makes until kb_cupti_pop with `id`.
extern "C" int kb_cupti_push(uint64_t id) { return cuptiActivityPushExternalCorrelationId(kIterationKind, id); }

extern "C" int kb_cupti_pop(void) {
  uint64_t last = 0;
  return cuptiActivityPopExternalCorrelationId(kIterationKind, &last);
}

// Delivers every record CUPTI holds to the callback. Call after synchronizing the device, so that every record is
// complete. The mutex is not held here: CUPTI may run the callback on this thread, inside the flush.
extern "C" int kb_cupti_flush(void) { return cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED); }

// Writes up to `capacity` spans (pushed id, earliest start, latest end, busy time, and the part of it in copies that
// cross the GPU's edge, in ns) in increasing id order, sets *count, and forgets them; spans that did not fit come with
// the next call. Call after kb_cupti_flush.
extern "C" int kb_cupti_read(uint64_t* ids, uint64_t* starts, uint64_t* ends, uint64_t* busy, uint64_t* offDeviceCopyBusy, size_t capacity,
                             size_t* count) {
  std::lock_guard<std::mutex> lock(mutex);
  joinAndDiscardTheRest();
  size_t written = 0;
  for (auto entry = workByIteration.begin(); entry != workByIteration.end() && written < capacity; ++written) {
    ids[written] = entry->first;
    starts[written] = entry->second.start();
    ends[written] = entry->second.end();
    busy[written] = entry->second.busy();
    offDeviceCopyBusy[written] = entry->second.offDeviceCopyBusy();
    entry = workByIteration.erase(entry);
  }
  *count = written;
  return CUPTI_SUCCESS;
}

// Writes up to `capacity` intervals (start, end, in ns, in the order they started) of the last read's untagged work
// that no window claimed, sets *count, and forgets them; those that did not fit come with the next call, until the
// next read. Call after kb_cupti_read.
extern "C" int kb_cupti_untagged(uint64_t* starts, uint64_t* ends, size_t capacity, size_t* count) {
  std::lock_guard<std::mutex> lock(mutex);
  size_t written = std::min(capacity, untaggedIntervals.size());
  for (size_t i = 0; i < written; i++) {
    starts[i] = untaggedIntervals[i].first;
    ends[i] = untaggedIntervals[i].second;
  }
  untaggedIntervals.erase(untaggedIntervals.begin(), untaggedIntervals.begin() + written);
  *count = written;
  return CUPTI_SUCCESS;
}

// Records lost since the last call (dropped for lack of buffer space, or without timestamps). A span read in the
// same window may be missing work: the caller should discard it.
extern "C" int kb_cupti_lost(uint64_t* lost) {
  std::lock_guard<std::mutex> lock(mutex);
  *lost = lostRecords;
  lostRecords = 0;
  return CUPTI_SUCCESS;
}

// Keeps (1) or stops keeping (0) the launch configuration of every kernel, and every memset and copy, from here on.
extern "C" int kb_cupti_keep_launches(int keep) {
  std::lock_guard<std::mutex> lock(mutex);
  keepLaunches = keep != 0;
  return CUPTI_SUCCESS;
}

// Reads the kernels, memsets and copies launched under pushed id `id`, in the order they ran, for kb_cupti_launch,
// and forgets them; sets *count. A launch reported more than once counts once. Call after kb_cupti_flush.
extern "C" int kb_cupti_launches(uint64_t id, size_t* count) {
  std::lock_guard<std::mutex> lock(mutex);
  joinAndDiscardTheRest();
  readLaunches.clear();
  auto entry = launchesByIteration.find(id);
  if (entry != launchesByIteration.end()) {
    readLaunches = std::move(entry->second);
    launchesByIteration.erase(entry);
  }
  std::sort(readLaunches.begin(), readLaunches.end(), [](const Launch& a, const Launch& b) { return a.start < b.start; });
  std::vector<std::pair<uint32_t, uint64_t>> seen;
  auto repeated = [&seen](const Launch& launch) {
    std::pair<uint32_t, uint64_t> key{launch.correlationId, launch.graphNodeId};
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) return true;
    seen.push_back(key);
    return false;
  };
  readLaunches.erase(std::remove_if(readLaunches.begin(), readLaunches.end(), repeated), readLaunches.end());
  *count = readLaunches.size();
  return CUPTI_SUCCESS;
}

// The `index`-th operation kb_cupti_launches read: its kind (0 kernel, 1 memset, 2 copy), and for a kernel its
// nine launch figures (see Launch) and its name, valid until the next kb_cupti_launches.
extern "C" int kb_cupti_launch(size_t index, int32_t* kind, int32_t* config, const char** name) {
  std::lock_guard<std::mutex> lock(mutex);
  if (index >= readLaunches.size()) return CUPTI_ERROR_INVALID_PARAMETER;
  *kind = readLaunches[index].kind;
  std::copy(readLaunches[index].config, readLaunches[index].config + 9, config);
  *name = readLaunches[index].name.c_str();
  return CUPTI_SUCCESS;
}

// CUPTI's clock now, in ns: the clock of the activity records' timestamps.
extern "C" int kb_cupti_timestamp(uint64_t* ns) { return cuptiGetTimestamp(ns); }

// Marks [start, end] on CUPTI's clock as the window of iteration `id`: untagged work that ran in it is the call's.
extern "C" int kb_cupti_window(uint64_t id, uint64_t start, uint64_t end) {
  std::lock_guard<std::mutex> lock(mutex);
  windowByIteration[id] = {start, end};
  return CUPTI_SUCCESS;
}

// Stops collecting and delivers what is left (still readable with kb_cupti_read).
extern "C" int kb_cupti_stop(void) {
  CUptiResult status = disableAll();
  CUptiResult flushed = cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  return status == CUPTI_SUCCESS ? flushed : status;
}

// CUPTI takes one callback subscriber per process. The harness takes it before any solution loads and holds it for
// the host's life, so solution code cannot subscribe to callbacks on the harness's own CUDA calls (to queue work in
// front of a window, or to rewrite what cudaEventElapsedTime returns). It lets go only while the range profiler
// runs, which is not used beside a subscriber here.
namespace {
CUpti_SubscriberHandle heldSubscriber = nullptr;

void CUPTIAPI noCallbacks(void*, CUpti_CallbackDomain, CUpti_CallbackId, const void*) {}

// Subscribes under `name`; when another subscriber holds CUPTI, CUPTI writes its name into `owner` (CUPTI 13 on:
// before it, subscribers have no names and `owner` stays empty).
CUptiResult subscribe(CUpti_SubscriberHandle* handle, const char* name, char* owner, size_t ownerSize) {
  if (ownerSize > 0) owner[0] = '\0';
#if CUPTI_API_VERSION >= 130000
  CUpti_SubscriberParams params = {};
  params.structSize = CUpti_SubscriberParams_STRUCT_SIZE;
  params.subscriberName = name;
  params.oldSubscriberName = owner;
  params.oldSubscriberSize = ownerSize;
  return cuptiSubscribe_v2(handle, noCallbacks, nullptr, &params);
#else
  (void)name;
  return cuptiSubscribe(handle, noCallbacks, nullptr);
#endif
}
}  // namespace

// Takes CUPTI's subscriber (held already: success). CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED: another holds it,
// named in `owner` (a solution, or a tool such as Nsight Systems that the process runs under).
extern "C" int kb_cupti_claim(char* owner, size_t ownerSize) {
  if (heldSubscriber != nullptr) return CUPTI_SUCCESS;
  return subscribe(&heldSubscriber, "vitest-kernel-bench", owner, ownerSize);
}

extern "C" int kb_cupti_release(void) {
  if (heldSubscriber == nullptr) return CUPTI_SUCCESS;
  CUptiResult status = cuptiUnsubscribe(heldSubscriber);
  heldSubscriber = nullptr;
  return status;
}

// Who holds CUPTI's subscriber now: *free is 1 when nobody does (the probe's own subscription is undone at once),
// else `owner` names the holder.
extern "C" int kb_cupti_probe(int* free, char* owner, size_t ownerSize) {
  CUpti_SubscriberHandle probe = nullptr;
  CUptiResult status = subscribe(&probe, "vitest-kernel-bench probe", owner, ownerSize);
  *free = status == CUPTI_SUCCESS;
  if (status == CUPTI_SUCCESS) return cuptiUnsubscribe(probe);
  return status == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED ? CUPTI_SUCCESS : status;
}
