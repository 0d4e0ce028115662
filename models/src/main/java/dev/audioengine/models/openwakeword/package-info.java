/**
 * The openWakeWord family (wake words, {@code --task kws}): the melspectrogram front end, the speech embedding network
 * and the keyword heads on the graph API ({@link dev.audioengine.models.openwakeword.OpenWakeWordSpotter}), with
 * openWakeWord's streaming pipeline around them.
 */
package dev.audioengine.models.openwakeword;
