/* app_convert.c: ImageMagick resizing, blurring and sharpening a large generated image through MagickWand (the library functions `convert -resize -blur -sharpen` runs), for the benchmark harness: a Debian library built against libgomp, unmodified. */
#include <stdio.h>
#include <stdlib.h>
#include <wand/MagickWand.h>

#include "app_clock.h"

/* Usage: app-convert [SIDE]
 * A SIDE x SIDE image (1000 by default) of smooth waves and sharp edges, generated here (ImageMagick's
 * coders are modules it loads at run time, which the NUMA VM does not ship), then resize 150 %, blur
 * 0x2, sharpen 0x1: ImageMagick's OpenMP loops. Timed; then the result's pixel signature (ImageMagick's
 * SHA-256 of the pixels) as "Checksum = ...": the harness checks every configuration's output is the
 * first run's. "Verification = SUCCESSFUL" when every step succeeded and the image is 1.5 x SIDE square. */
/* Fill the wand's image, row by row: a deterministic picture with gradients and edges. */
static int generate(MagickWand *wand, long side)
{
    PixelIterator *it = NewPixelIterator(wand);
    int ok = it != NULL;
    for (long y = 0; ok && y < side; y++) {
        size_t width = 0;
        PixelWand **row = PixelGetNextIteratorRow(it, &width);
        ok = row != NULL;
        for (size_t x = 0; ok && x < width; x++) {
            double r = (double)((x * 7 + (size_t)y * 3) % 256) / 255.0;
            double g = ((x / 32 + (size_t)y / 32) % 2) ? 0.9 : 0.1;
            double b = (double)(((size_t)y * (size_t)y + x) % 1021) / 1020.0;
            PixelSetRed(row[x], r);
            PixelSetGreen(row[x], g);
            PixelSetBlue(row[x], b);
        }
        ok = ok && PixelSyncIterator(it) == MagickTrue;
    }
    if (it)
        DestroyPixelIterator(it);
    return ok;
}

int main(int argc, char **argv)
{
    long side = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
    if (side < 16 || side > 20000) {
        fprintf(stderr, "usage: app-convert [SIDE 16..20000]\n");
        return 2;
    }
    MagickWandGenesis();
    MagickWand *wand = NewMagickWand();
    PixelWand *black = NewPixelWand();
    PixelSetColor(black, "black");
    int ok = MagickNewImage(wand, (size_t)side, (size_t)side, black) == MagickTrue && generate(wand, side);
    double t0 = app_now();
    ok = ok && MagickResizeImage(wand, (size_t)(side * 3 / 2), (size_t)(side * 3 / 2), LanczosFilter, 1.0) == MagickTrue;
    ok = ok && MagickBlurImage(wand, 0, 2) == MagickTrue;
    ok = ok && MagickSharpenImage(wand, 0, 1) == MagickTrue;
    double secs = app_now() - t0;
    ok = ok && MagickGetImageWidth(wand) == (size_t)(side * 3 / 2) && MagickGetImageHeight(wand) == (size_t)(side * 3 / 2);
    char *signature = ok ? MagickGetImageSignature(wand) : NULL;
    printf("app-convert: %ldx%ld image, resize 150%%, blur 0x2, sharpen 0x1\n", side, side);
    printf("Checksum = %s\n", signature ? signature : "none");
    printf("Time in seconds = %.6f\n", secs);
    printf("Verification = %s\n", ok && signature ? "SUCCESSFUL" : "UNSUCCESSFUL");
    if (signature)
        MagickRelinquishMemory(signature);
    DestroyPixelWand(black);
    DestroyMagickWand(wand);
    MagickWandTerminus();
    return ok && signature ? 0 : 1;
}
