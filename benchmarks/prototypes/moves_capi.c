/* Kernel K1 in plain C through the CPython API (the contract is moves_pure.py's).  The arrays arrive through the
   buffer protocol (int16, C-contiguous); the result is a Python list of ints. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static int reach(const short *ter, const short *hs, const short *nb, int nh, int ba, int asteroid, int p,
                 int start, int rmax, int existing, PyObject *out, int code)
{
    int dist[64], frontier[64], nxt[64];
    int nf = 1, nn, d = 0, i, k, h, g;
    for (i = 0; i < nh; i++) dist[i] = -1;
    dist[start] = 0;
    frontier[0] = start;
    while (nf > 0 && d < rmax) {
        d++;
        nn = 0;
        for (i = 0; i < nf; i++) {
            h = frontier[i];
            for (k = 0; k < 6; k++) {
                g = nb[6 * h + k];
                if (g >= 0 && dist[g] < 0 && (ter[g] != asteroid || g == ba)) { dist[g] = d; nxt[nn++] = g; }
            }
        }
        for (i = 0; i < nn; i++) frontier[i] = nxt[i];
        nf = nn;
    }
    for (h = 0; h < nh; h++) {
        int ok;
        if (dist[h] < 0) continue;
        if (h == start) {
            ok = 0;
            if (rmax >= 2)
                for (k = 0; k < 6; k++) { g = nb[6 * h + k]; if (g >= 0 && (ter[g] != asteroid || g == ba)) ok = 1; }
        } else ok = dist[h] >= 1;
        if (ok) {
            int a = hs[2 * h], b = hs[2 * h + 1];
            int cnt = (a >= 0) + (b >= 0), own = (a == p) + (b == p);
            if (existing && h == start) { cnt--; own--; }
            if (cnt < 2 && own == 0) {
                PyObject *v = PyLong_FromLong(code * 256 + h);
                if (!v || PyList_Append(out, v) < 0) { Py_XDECREF(v); return -1; }
                Py_DECREF(v);
            }
        }
    }
    return 0;
}

static PyObject *command_moves(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer bt, bh, bn;
    PyObject *out = NULL;
    if (nargs != 7) { PyErr_SetString(PyExc_TypeError, "command_moves takes 7 arguments"); return NULL; }
    int ba = (int)PyLong_AsLong(args[3]), asteroid = (int)PyLong_AsLong(args[4]);
    int p = (int)PyLong_AsLong(args[5]), ev = (int)PyLong_AsLong(args[6]);
    if (PyErr_Occurred()) return NULL;
    if (PyObject_GetBuffer(args[0], &bt, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return NULL;
    if (PyObject_GetBuffer(args[1], &bh, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) { PyBuffer_Release(&bt); return NULL; }
    if (PyObject_GetBuffer(args[2], &bn, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        PyBuffer_Release(&bt); PyBuffer_Release(&bh); return NULL;
    }
    if (bt.itemsize != 2 || bh.itemsize != 2 || bn.itemsize != 2 || bt.len / 2 > 64) {
        PyErr_SetString(PyExc_ValueError, "int16 arrays expected (at most 64 hexes)");
        goto done;
    }
    int nh = (int)(bt.len / 2), h;
    const short *ter = bt.buf, *hs = bh.buf, *nb = bn.buf;
    out = PyList_New(0);
    if (!out) goto done;
    for (h = 0; h < nh; h++)
        if (hs[2 * h] == p || hs[2 * h + 1] == p)
            if (reach(ter, hs, nb, nh, ba, asteroid, p, h, ev, 1, out, h) < 0) { Py_CLEAR(out); goto done; }
    if (reach(ter, hs, nb, nh, ba, asteroid, p, ba, ev, 0, out, 255) < 0) Py_CLEAR(out);
done:
    PyBuffer_Release(&bt); PyBuffer_Release(&bh); PyBuffer_Release(&bn);
    return out;
}

static PyMethodDef methods[] = {
    {"command_moves", (PyCFunction)(void (*)(void))command_moves, METH_FASTCALL, "Command moves (kernel K1)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef mod = {PyModuleDef_HEAD_INIT, "moves_capi", NULL, -1, methods};

PyMODINIT_FUNC PyInit_moves_capi(void) { return PyModule_Create(&mod); }
