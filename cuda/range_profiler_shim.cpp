// Range-profiler shim, compiled by src/compile/cupti-shim.ts and called through src/native/range-profiler.ts. It
// collects Nsight Compute metrics for every kernel one solution() call launches, in this process, through CUPTI's
// Range Profiler and Profiler Host APIs (no ncu binary), in two uses that share everything but their metrics:
// - the `profiler` timing (kb_prof_enable … kb_prof_stop): gpu__time_duration.sum, summed over a call's kernels;
//   it needs one pass, so no kernel is replayed;
// - the counters (for each counted call: kb_prof_counters_enable, then per pass kb_prof_start, the call and
//   kb_prof_counters_end_pass until CUPTI has every pass, then kb_prof_counters_decode, kb_prof_counters_read,
//   kb_prof_disable): the metrics the caller names, per kernel, for one untimed call. User replay: the caller runs
//   the call once per pass, refilling its inputs between passes and emptying L2 right before the call it keeps, so
//   every pass sees the same data and a cold L2, as ncu's default cache control gives (CUPTI's kernel replay
//   restores memory but leaves the caches warm from the pass before).
//
// Auto range: CUPTI makes every kernel launched between kb_prof_start and the stop a range of its own, on any
// stream, serialized and followed by a context synchronization, as ncu profiles kernels. A range's
// gpu__time_duration is then that kernel's time on the GPU as ncu reports it. One Start/Stop session per call keeps
// the harness's own kernels (inputs, L2 flush, checks) out.
//
// Every entry point returns a CUptiResult (0 = success).
#include <cuda.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace {

#define RETURN_IF_FAILED(call)                    \
  do {                                            \
    CUptiResult status_ = (call);                 \
    if (status_ != CUPTI_SUCCESS) return status_; \
  } while (0)

// What the host side needs for one device and metric list, built once per process and use: the config image that
// schedules the metrics (which needs the device's counter availability, readable only while no profiling session
// is active) and the host object that evaluates ranges against it.
struct Config {
  int device = -1;
  std::vector<std::string> metrics;
  std::vector<const char*> names;  // metrics' c_str(), in their order, as CUPTI takes them
  CUpti_Profiler_Host_Object* host = nullptr;
  std::vector<uint8_t> image;
  size_t passes = 0;
};
// Never destroyed: CUPTI may still hold the counter data image, or tear a session down, while the process exits.
Config& timing = *new Config;
Config& counters = *new Config;

// The range profiler of the context being profiled, between an enable and kb_prof_disable, the config it was
// configured with, and the counter data image its ranges are decoded into (reset after every call).
CUpti_RangeProfiler_Object* profiler = nullptr;
Config* active = nullptr;
std::vector<uint8_t>& counterData = *new std::vector<uint8_t>;

CUptiResult initializeProfiler() {
  static bool initialized = false;
  if (initialized) return CUPTI_SUCCESS;
  CUpti_Profiler_Initialize_Params params{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
  RETURN_IF_FAILED(cuptiProfilerInitialize(&params));
  initialized = true;
  return CUPTI_SUCCESS;
}

CUptiResult counterAvailability(CUcontext context, std::vector<uint8_t>& image) {
  CUpti_Profiler_GetCounterAvailability_Params params{CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
  params.ctx = context;
  RETURN_IF_FAILED(cuptiProfilerGetCounterAvailability(&params));  // the size, with no buffer given
  image.assign(params.counterAvailabilityImageSize, 0);
  params.pCounterAvailabilityImage = image.data();
  return cuptiProfilerGetCounterAvailability(&params);
}

void releaseConfig(Config& config) {
  if (config.host != nullptr) {
    CUpti_Profiler_Host_Deinitialize_Params params{CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
    params.pHostObject = config.host;
    cuptiProfilerHostDeinitialize(&params);
  }
  config = Config{};
}

CUptiResult buildConfig(Config& config, CUcontext context, int device, const std::vector<std::string>& metrics) {
  config.metrics = metrics;
  for (const std::string& metric : config.metrics) config.names.push_back(metric.c_str());
  CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  chip.deviceIndex = static_cast<size_t>(device);
  RETURN_IF_FAILED(cuptiDeviceGetChipName(&chip));
  std::vector<uint8_t> availability;
  RETURN_IF_FAILED(counterAvailability(context, availability));

  CUpti_Profiler_Host_Initialize_Params host{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
  host.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  host.pChipName = chip.pChipName;
  host.pCounterAvailabilityImage = availability.data();
  RETURN_IF_FAILED(cuptiProfilerHostInitialize(&host));
  config.device = device;
  config.host = host.pHostObject;

  CUpti_Profiler_Host_ConfigAddMetrics_Params add{CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
  add.pHostObject = config.host;
  add.ppMetricNames = config.names.data();
  add.numMetrics = config.names.size();
  RETURN_IF_FAILED(cuptiProfilerHostConfigAddMetrics(&add));
  CUpti_Profiler_Host_GetConfigImageSize_Params size{CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
  size.pHostObject = config.host;
  RETURN_IF_FAILED(cuptiProfilerHostGetConfigImageSize(&size));
  config.image.assign(size.configImageSize, 0);
  CUpti_Profiler_Host_GetConfigImage_Params image{CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
  image.pHostObject = config.host;
  image.configImageSize = config.image.size();
  image.pConfigImage = config.image.data();
  RETURN_IF_FAILED(cuptiProfilerHostGetConfigImage(&image));

  CUpti_Profiler_Host_GetNumOfPasses_Params passes{CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
  passes.configImageSize = config.image.size();
  passes.pConfigImage = config.image.data();
  RETURN_IF_FAILED(cuptiProfilerHostGetNumOfPasses(&passes));
  config.passes = passes.numOfPasses;
  return CUPTI_SUCCESS;
}

// `config` for `device` and `metrics`, built unless this process has it already; a failure leaves none.
CUptiResult ensureConfig(Config& config, CUcontext context, int device, const std::vector<std::string>& metrics) {
  if (config.host != nullptr && config.device == device && config.metrics == metrics) return CUPTI_SUCCESS;
  releaseConfig(config);
  CUptiResult status = buildConfig(config, context, device, metrics);
  if (status != CUPTI_SUCCESS) releaseConfig(config);
  return status;
}

CUptiResult resetCounterData() {
  CUpti_RangeProfiler_CounterDataImage_Initialize_Params params{
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
  params.pRangeProfilerObject = profiler;
  params.counterDataSize = counterData.size();
  params.pCounterData = counterData.data();
  return cuptiRangeProfilerCounterDataImageInitialize(&params);
}

// The counter data image for up to `maxKernels` ranges of the active config's metrics, then the session's
// configuration. Kernel replay (the timing's single pass): one call submits every pass. User replay (the
// counters): the caller repeats the call until the stop's isAllPassSubmitted says CUPTI has every pass.
CUptiResult configureProfiler(size_t maxKernels, CUpti_ProfilerReplayMode replayMode) {
  CUpti_RangeProfiler_GetCounterDataSize_Params size{CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
  size.pRangeProfilerObject = profiler;
  size.pMetricNames = active->names.data();
  size.numMetrics = active->names.size();
  size.maxNumOfRanges = maxKernels;
  size.maxNumRangeTreeNodes = static_cast<uint32_t>(maxKernels);
  RETURN_IF_FAILED(cuptiRangeProfilerGetCounterDataSize(&size));
  counterData.assign(size.counterDataSize, 0);
  RETURN_IF_FAILED(resetCounterData());

  CUpti_RangeProfiler_SetConfig_Params params{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
  params.pRangeProfilerObject = profiler;
  params.configSize = active->image.size();
  params.pConfig = active->image.data();
  params.counterDataImageSize = counterData.size();
  params.pCounterDataImage = counterData.data();
  params.range = CUPTI_AutoRange;
  params.replayMode = replayMode;
  params.maxRangesPerPass = maxKernels;
  params.numNestingLevels = 1;  // what auto range requires
  params.minNestingLevel = 1;
  params.passIndex = 0;
  params.targetNestingLevel = 1;
  return cuptiRangeProfilerSetConfig(&params);
}

CUptiResult disableProfiler() {
  if (profiler == nullptr) return CUPTI_SUCCESS;
  CUpti_RangeProfiler_Disable_Params params{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
  params.pRangeProfilerObject = profiler;
  CUptiResult status = cuptiRangeProfilerDisable(&params);
  profiler = nullptr;
  active = nullptr;
  counterData.clear();
  return status;
}

// Enables range profiling of `context` with `config` (built already) for calls of up to `maxKernels` kernels.
CUptiResult enableProfiler(Config& config, CUcontext context, size_t maxKernels, CUpti_ProfilerReplayMode replayMode) {
  CUpti_RangeProfiler_Enable_Params enable{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
  enable.ctx = context;
  RETURN_IF_FAILED(cuptiRangeProfilerEnable(&enable));
  profiler = enable.pRangeProfilerObject;
  active = &config;
  CUptiResult status = configureProfiler(maxKernels, replayMode);
  if (status != CUPTI_SUCCESS) disableProfiler();  // the configuration's failure is the one to report
  return status;
}

// Ends a session (one pass); *allPasses says whether CUPTI now has every pass.
CUptiResult stopSession(int* allPasses) {
  CUpti_RangeProfiler_Stop_Params stop{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
  stop.pRangeProfilerObject = profiler;
  RETURN_IF_FAILED(cuptiRangeProfilerStop(&stop));
  *allPasses = stop.isAllPassSubmitted;
  return CUPTI_SUCCESS;
}

// Decodes what the sessions collected into the counter data image: *kernels ranges were profiled, *dropped did
// not fit.
CUptiResult decode(size_t* kernels, size_t* dropped) {
  CUpti_RangeProfiler_DecodeData_Params decode{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
  decode.pRangeProfilerObject = profiler;
  RETURN_IF_FAILED(cuptiRangeProfilerDecodeData(&decode));  // synchronizes the context first
  *dropped = decode.numOfRangeDropped;
  CUpti_RangeProfiler_GetCounterDataInfo_Params info{CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
  info.pCounterDataImage = counterData.data();
  info.counterDataImageSize = counterData.size();
  RETURN_IF_FAILED(cuptiRangeProfilerGetCounterDataInfo(&info));
  *kernels = info.numTotalRanges;
  return CUPTI_SUCCESS;
}

// The active config's metrics for one decoded range, in their order.
CUptiResult evaluateRange(size_t range, double* values) {
  CUpti_Profiler_Host_EvaluateToGpuValues_Params evaluate{CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
  evaluate.pHostObject = active->host;
  evaluate.pCounterDataImage = counterData.data();
  evaluate.counterDataImageSize = counterData.size();
  evaluate.rangeIndex = range;
  evaluate.ppMetricNames = active->names.data();
  evaluate.numMetrics = active->names.size();
  evaluate.pMetricValues = values;
  return cuptiProfilerHostEvaluateToGpuValues(&evaluate);
}

}  // namespace

// Whether `device` can be profiled, as CUPTI sees it: levels[0] overall, then architecture, SLI, vGPU, confidential
// computing, CMP and WSL, each a CUpti_Profiler_Support_Level (3 = supported).
extern "C" int kb_prof_support(int device, int* levels) {
  RETURN_IF_FAILED(initializeProfiler());
  CUpti_Profiler_DeviceSupported_Params params{CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE};
  params.cuDevice = device;
  params.api = CUPTI_PROFILER_RANGE_PROFILING;
  RETURN_IF_FAILED(cuptiProfilerDeviceSupported(&params));
  const CUpti_Profiler_Support_Level found[] = {
      params.isSupported, params.architecture, params.sli, params.vGpu, params.confidentialCompute, params.cmp, params.wsl,
  };
  for (size_t i = 0; i < sizeof found / sizeof found[0]; ++i) levels[i] = found[i];
  return CUPTI_SUCCESS;
}

// Enables range profiling of `context` (the current context of CUDA device `device`) for the `profiler` timing of
// calls of up to `maxKernels` kernels each. Sets *passes to the passes gpu__time_duration.sum needs on this GPU:
// anything but 1 leaves the profiler disabled and returns CUPTI_ERROR_NOT_SUPPORTED.
extern "C" int kb_prof_enable(CUcontext context, int device, size_t maxKernels, size_t* passes) {
  if (profiler != nullptr) return CUPTI_ERROR_INVALID_OPERATION;
  RETURN_IF_FAILED(initializeProfiler());
  RETURN_IF_FAILED(ensureConfig(timing, context, device, {"gpu__time_duration.sum"}));
  *passes = timing.passes;
  if (timing.passes != 1) return CUPTI_ERROR_NOT_SUPPORTED;
  return enableProfiler(timing, context, maxKernels, CUPTI_KernelReplay);
}

// Every kernel launched from here to the stop, on any stream, is profiled.
extern "C" int kb_prof_start(void) {
  CUpti_RangeProfiler_Start_Params params{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
  params.pRangeProfilerObject = profiler;
  return cuptiRangeProfilerStart(&params);
}

// Ends a timing session and decodes it: *ns is the sum of gpu__time_duration.sum over its kernels, *kernels how
// many were profiled, *dropped how many did not fit (more than maxKernels), *allPasses whether CUPTI collected
// every pass (always, with one pass). Leaves the counter data image empty for the next call.
extern "C" int kb_prof_stop(double* ns, size_t* kernels, size_t* dropped, int* allPasses) {
  RETURN_IF_FAILED(stopSession(allPasses));
  RETURN_IF_FAILED(decode(kernels, dropped));
  *ns = 0;
  for (size_t range = 0; range < *kernels; ++range) {
    double value = 0;
    RETURN_IF_FAILED(evaluateRange(range, &value));
    *ns += value;
  }
  return resetCounterData();
}

// Enables range profiling of `context` (device `device`'s) for the counters of one call of up to `maxKernels`
// kernels: the `count` metrics named in `metrics`, per kernel. Sets *passes to the passes they need on this GPU:
// the call is run that many times, each a session of its own (kb_prof_start … kb_prof_counters_end_pass). Each
// counted call enables the profiler afresh.
extern "C" int kb_prof_counters_enable(CUcontext context, int device, size_t maxKernels, const char** metrics, size_t count, size_t* passes) {
  if (profiler != nullptr) return CUPTI_ERROR_INVALID_OPERATION;
  RETURN_IF_FAILED(initializeProfiler());
  RETURN_IF_FAILED(ensureConfig(counters, context, device, std::vector<std::string>(metrics, metrics + count)));
  *passes = counters.passes;
  return enableProfiler(counters, context, maxKernels, CUPTI_UserReplay);
}

// Ends one pass of a counted call; *allPasses says whether CUPTI has every pass (then decode), or wants the call
// run again.
extern "C" int kb_prof_counters_end_pass(int* allPasses) { return stopSession(allPasses); }

// Decodes the passes of a counted call: *kernels ranges (one per kernel of the call), *dropped that did not fit.
// They stay readable with kb_prof_counters_read until kb_prof_disable.
extern "C" int kb_prof_counters_decode(size_t* kernels, size_t* dropped) { return decode(kernels, dropped); }

// The metrics of range `range` (the range-th kernel launched) into values[0..count), in kb_prof_counters_enable's
// order.
extern "C" int kb_prof_counters_read(size_t range, double* values) { return evaluateRange(range, values); }

// Disables range profiling of the context. The configs stay, for the next enable on the same device.
extern "C" int kb_prof_disable(void) { return disableProfiler(); }
