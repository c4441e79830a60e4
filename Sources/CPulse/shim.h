#ifndef TILTD_CPULSE_SHIM_H
#define TILTD_CPULSE_SHIM_H
#include <pulse/pulseaudio.h>

/// PA_VOLUME_NORM and PA_INVALID_INDEX are cast macros, which Swift does
/// not import; these return their values.
static inline pa_volume_t tiltd_pa_volume_norm(void) { return PA_VOLUME_NORM; }
static inline uint32_t tiltd_pa_invalid_index(void) { return PA_INVALID_INDEX; }

/// PA_SAMPLE_FLOAT32NE is an endian-dependent alias macro.
static inline pa_sample_format_t tiltd_pa_sample_float32ne(void) { return PA_SAMPLE_FLOAT32NE; }
#endif
