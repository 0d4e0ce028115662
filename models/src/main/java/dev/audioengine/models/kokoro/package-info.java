/**
 * The Kokoro-82M speech synthesis family: the network on the graph API, its weight and voice files, and the synthesizer
 * that turns phonemes into audio piece by piece.
 */
package dev.audioengine.models.kokoro;
