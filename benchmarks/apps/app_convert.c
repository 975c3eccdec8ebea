/* app_convert.c: ImageMagick's convert (ConvertImageCommand, the function the convert program runs) resizing, blurring and sharpening a large generated image, for the benchmark harness: a Debian application built against libgomp, unmodified. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wand/MagickWand.h>

/* Usage: app-convert [SIDE]
 * convert -seed 7 -size SIDExSIDE plasma:fractal -resize 150% -blur 0x2 -sharpen 0x1 OUT.miff
 * (SIDE 1000 by default), timed; then the output's pixel signature (ImageMagick's SHA-256 of the
 * pixels) as "Checksum = ...": the harness checks every configuration's output is the first run's.
 * "Verification = SUCCESSFUL" when the command succeeded and the image is 1.5 x SIDE square. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    long side = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
    if (side < 16 || side > 20000) {
        fprintf(stderr, "usage: app-convert [SIDE 16..20000]\n");
        return 2;
    }
    char size[64], out[128];
    snprintf(size, sizeof size, "%ldx%ld", side, side);
    snprintf(out, sizeof out, "/tmp/ompnuma-app-convert-%d.miff", (int)getpid());
    char *args[] = {"convert", "-seed", "7", "-size", size, "plasma:fractal", "-resize", "150%", "-blur", "0x2",
                    "-sharpen", "0x1", out, NULL};
    MagickWandGenesis();
    ImageInfo *info = AcquireImageInfo();
    ExceptionInfo *ex = AcquireExceptionInfo();
    double t0 = now();
    MagickBooleanType ok = ConvertImageCommand(info, (int)(sizeof args / sizeof *args) - 1, args, NULL, ex);
    double secs = now() - t0;
    if (ex->severity != UndefinedException)
        CatchException(ex);
    MagickWand *wand = NewMagickWand();
    int good = ok == MagickTrue && MagickReadImage(wand, out) == MagickTrue &&
               MagickGetImageWidth(wand) == (size_t)(side * 3 / 2) && MagickGetImageHeight(wand) == (size_t)(side * 3 / 2);
    char *signature = good ? MagickGetImageSignature(wand) : NULL;
    printf("app-convert: %s plasma, resize 150%%, blur 0x2, sharpen 0x1\n", size);
    printf("Checksum = %s\n", signature ? signature : "none");
    printf("Time in seconds = %.6f\n", secs);
    printf("Verification = %s\n", good && signature ? "SUCCESSFUL" : "UNSUCCESSFUL");
    if (signature)
        MagickRelinquishMemory(signature);
    DestroyMagickWand(wand);
    unlink(out);
    DestroyExceptionInfo(ex);
    DestroyImageInfo(info);
    MagickWandTerminus();
    return good ? 0 : 1;
}
