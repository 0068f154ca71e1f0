/* A stand-in bcryptprimitives.dll for Wine 8, which lacks it: Rust's standard library
 * imports ProcessPrng from it on Windows targets (Windows 10 and later have it). Only
 * the Wine prefix of .ci/windows.sh gets this DLL; nothing ships it.
 * ProcessPrng fills the buffer with random bytes and always succeeds (Microsoft's
 * documentation); here RtlGenRandom (SystemFunction036 in advapi32) does the work. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
