/**
 * Kokoro's text front end: English normalisation, sentence and chunk splitting, and phonemization through espeak-ng
 * mapped to Kokoro's vocabulary.
 */
package dev.audioengine.models.kokoro.text;
