# Compile-time declarations of rng_pure.py (read only by Cython): numpy's bit generator and C distributions.
from cpython.pycapsule cimport PyCapsule_GetPointer
from numpy.random cimport bitgen_t
from numpy.random.c_distributions cimport random_interval, random_standard_uniform
