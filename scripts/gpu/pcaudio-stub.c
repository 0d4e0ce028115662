/* A stand-in for libpcaudio.so.0 on the GPU machine, where PulseAudio and ALSA (libpcaudio's own needs) are absent.
 * libespeak-ng links it for playback only; the engine asks espeak-ng for phonemes and never plays audio, so every
 * call here reports failure. Built by scripts/gpu/kokoro-gpu-package; never installed on a user's machine. */
#include <stddef.h>
struct audio_object;
struct audio_object *create_audio_device_object(const char *device, const char *application, const char *description) { return NULL; }
int audio_object_open(struct audio_object *o, int format, unsigned rate, unsigned char channels) { return -1; }
void audio_object_close(struct audio_object *o) {}
void audio_object_destroy(struct audio_object *o) {}
int audio_object_write(struct audio_object *o, const void *data, size_t bytes) { return -1; }
int audio_object_drain(struct audio_object *o) { return -1; }
int audio_object_flush(struct audio_object *o) { return -1; }
const char *audio_object_strerror(struct audio_object *o, int error) { return "no audio output (stub)"; }
