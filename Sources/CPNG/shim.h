#ifndef TILTD_CPNG_SHIM_H
#define TILTD_CPNG_SHIM_H
#include <png.h>
#endif
