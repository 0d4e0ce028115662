/**
 * What speech recognition families share: the voice-activity windowing that splits long and live audio into utterances,
 * and the transcribers that decode each window and report partial and final text.
 */
package dev.audioengine.models.asr;
