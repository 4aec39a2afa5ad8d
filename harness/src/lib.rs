//! The std side of qosgate: the command line and the code that drives the kernel.
