/**
 * The typed task interfaces applications call: {@link dev.audioengine.model.task.VoiceActivityDetector} for speech
 * segments, {@link dev.audioengine.model.task.SpeechRecognizer} for transcripts (offline or streamed) and {@link
 * dev.audioengine.model.task.SpeechSynthesizer} for speech, with their options, events and results.
 */
package dev.audioengine.model.task;
