#ifndef TILTD_CSNDFILE_SHIM_H
#define TILTD_CSNDFILE_SHIM_H
#include <sndfile.h>
#endif
