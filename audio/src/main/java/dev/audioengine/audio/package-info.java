/**
 * Audio input and output: {@link dev.audioengine.audio.AudioStream} decodes files, pipes or standard input to mono
 * blocks at a target sample rate in bounded memory; WAV is decoded in pure Java, other formats through libsndfile,
 * resampling is a streaming polyphase filter, and a pure-Java FLAC encoder writes synthesized speech.
 */
package dev.audioengine.audio;
