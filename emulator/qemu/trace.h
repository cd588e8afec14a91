#include "trace/trace-hw_misc_gaudi.h"
