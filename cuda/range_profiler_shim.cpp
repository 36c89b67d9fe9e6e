// Range-profiler shim for the `profiler` timing mode: Nsight Compute's gpu__time_duration.sum for every kernel one
// solution() call launches, collected in this process through CUPTI's Range Profiler and Profiler Host APIs (no ncu
// binary). Compiled by src/compile/cupti-shim.ts, called through src/native/range-profiler.ts.
//
// Auto range: CUPTI makes every kernel launched between kb_prof_start and kb_prof_stop a range of its own, on any
// stream, serialized and followed by a context synchronization, as ncu profiles kernels. A range's
// gpu__time_duration is then that kernel's time on the GPU as ncu reports it, and a call's sample is the sum over
// its kernels. One Start/Stop session per call keeps the harness's own kernels (inputs, L2 flush, checks) out.
// Kernel replay: the metric needs one pass (checked from the config image when enabling), so no kernel is replayed.
//
// Every entry point returns a CUptiResult (0 = success).
#include <cuda.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace {

const char* kMetric = "gpu__time_duration.sum";

#define RETURN_IF_FAILED(call)                    \
  do {                                            \
    CUptiResult status_ = (call);                 \
    if (status_ != CUPTI_SUCCESS) return status_; \
  } while (0)

// What the host side needs for one device, built once per process: the config image that schedules the metric
// (which needs the device's counter availability, readable only while no profiling session is active) and the host
// object that evaluates ranges against it.
struct Config {
  int device = -1;
  CUpti_Profiler_Host_Object* host = nullptr;
  std::vector<uint8_t> image;
  size_t passes = 0;
};
Config config;

// The range profiler of the context being timed, between kb_prof_enable and kb_prof_disable, and the counter data
// image its ranges are decoded into (reset after every call).
CUpti_RangeProfiler_Object* profiler = nullptr;
std::vector<uint8_t> counterData;

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

void releaseConfig() {
  if (config.host != nullptr) {
    CUpti_Profiler_Host_Deinitialize_Params params{CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
    params.pHostObject = config.host;
    cuptiProfilerHostDeinitialize(&params);
  }
  config = Config{};
}

CUptiResult buildConfig(CUcontext context, int device) {
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
  add.ppMetricNames = &kMetric;
  add.numMetrics = 1;
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

// The config of `device`, built unless this process has it already; a failure leaves none.
CUptiResult ensureConfig(CUcontext context, int device) {
  if (config.host != nullptr && config.device == device) return CUPTI_SUCCESS;
  releaseConfig();
  CUptiResult status = buildConfig(context, device);
  if (status != CUPTI_SUCCESS) releaseConfig();
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

// The counter data image for up to `maxKernels` ranges, then the session's configuration.
CUptiResult configureProfiler(size_t maxKernels) {
  CUpti_RangeProfiler_GetCounterDataSize_Params size{CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
  size.pRangeProfilerObject = profiler;
  size.pMetricNames = &kMetric;
  size.numMetrics = 1;
  size.maxNumOfRanges = maxKernels;
  size.maxNumRangeTreeNodes = static_cast<uint32_t>(maxKernels);
  RETURN_IF_FAILED(cuptiRangeProfilerGetCounterDataSize(&size));
  counterData.assign(size.counterDataSize, 0);
  RETURN_IF_FAILED(resetCounterData());

  CUpti_RangeProfiler_SetConfig_Params params{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
  params.pRangeProfilerObject = profiler;
  params.configSize = config.image.size();
  params.pConfig = config.image.data();
  params.counterDataImageSize = counterData.size();
  params.pCounterDataImage = counterData.data();
  params.range = CUPTI_AutoRange;
  params.replayMode = CUPTI_KernelReplay;
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
  counterData.clear();
  return status;
}

// The sum of the metric over every range decoded into the counter data image.
CUptiResult sumRanges(double* ns, size_t* ranges) {
  CUpti_RangeProfiler_GetCounterDataInfo_Params info{CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
  info.pCounterDataImage = counterData.data();
  info.counterDataImageSize = counterData.size();
  RETURN_IF_FAILED(cuptiRangeProfilerGetCounterDataInfo(&info));
  *ranges = info.numTotalRanges;
  *ns = 0;
  for (size_t range = 0; range < info.numTotalRanges; ++range) {
    double value = 0;
    CUpti_Profiler_Host_EvaluateToGpuValues_Params evaluate{CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
    evaluate.pHostObject = config.host;
    evaluate.pCounterDataImage = counterData.data();
    evaluate.counterDataImageSize = counterData.size();
    evaluate.rangeIndex = range;
    evaluate.ppMetricNames = &kMetric;
    evaluate.numMetrics = 1;
    evaluate.pMetricValues = &value;
    RETURN_IF_FAILED(cuptiProfilerHostEvaluateToGpuValues(&evaluate));
    *ns += value;
  }
  return CUPTI_SUCCESS;
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

// Enables range profiling of `context` (the current context of CUDA device `device`) for calls of up to
// `maxKernels` kernels each. Sets *passes to the passes the metric needs on this GPU: anything but 1 leaves the
// profiler disabled and returns CUPTI_ERROR_NOT_SUPPORTED.
extern "C" int kb_prof_enable(CUcontext context, int device, size_t maxKernels, size_t* passes) {
  if (profiler != nullptr) return CUPTI_ERROR_INVALID_OPERATION;
  RETURN_IF_FAILED(initializeProfiler());
  RETURN_IF_FAILED(ensureConfig(context, device));
  *passes = config.passes;
  if (config.passes != 1) return CUPTI_ERROR_NOT_SUPPORTED;
  CUpti_RangeProfiler_Enable_Params enable{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
  enable.ctx = context;
  RETURN_IF_FAILED(cuptiRangeProfilerEnable(&enable));
  profiler = enable.pRangeProfilerObject;
  CUptiResult status = configureProfiler(maxKernels);
  if (status != CUPTI_SUCCESS) disableProfiler();  // the configuration's failure is the one to report
  return status;
}

// Every kernel launched from here to kb_prof_stop, on any stream, is profiled.
extern "C" int kb_prof_start(void) {
  CUpti_RangeProfiler_Start_Params params{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
  params.pRangeProfilerObject = profiler;
  return cuptiRangeProfilerStart(&params);
}

// Ends the session and decodes it: *ns is the sum of gpu__time_duration.sum over its kernels, *kernels how many
// were profiled, *dropped how many did not fit (more than maxKernels), *allPasses whether CUPTI collected every
// pass (always, with one pass). Leaves the counter data image empty for the next call.
extern "C" int kb_prof_stop(double* ns, size_t* kernels, size_t* dropped, int* allPasses) {
  CUpti_RangeProfiler_Stop_Params stop{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
  stop.pRangeProfilerObject = profiler;
  RETURN_IF_FAILED(cuptiRangeProfilerStop(&stop));
  *allPasses = stop.isAllPassSubmitted;
  CUpti_RangeProfiler_DecodeData_Params decode{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
  decode.pRangeProfilerObject = profiler;
  RETURN_IF_FAILED(cuptiRangeProfilerDecodeData(&decode));  // synchronizes the context first
  *dropped = decode.numOfRangeDropped;
  RETURN_IF_FAILED(sumRanges(ns, kernels));
  return resetCounterData();
}

// Disables range profiling of the context. The config stays, for the next kb_prof_enable on the same device.
extern "C" int kb_prof_disable(void) { return disableProfiler(); }
