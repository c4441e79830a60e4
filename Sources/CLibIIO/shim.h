#ifndef TILTD_CLIBIIO_SHIM_H
#define TILTD_CLIBIIO_SHIM_H
#include <iio.h>
#include <libudev.h>
#endif
