package dev.audioengine.blocks.weights;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every weight Kokoro-82M's network reads, by hexgrad's PyTorch module names (KModel: bert, bert_encoder, predictor,
 * text_encoder, decoder) with the shapes its config gives them (hidden 512, style 128, ALBERT 768 wide with 128-wide
 * embeddings and one shared layer, 178 symbols, iSTFTNet upsampling 10·6 with kernels 20 and 12, resblocks of
 * kernels 3, 7, 11). Written from the model's source, not read from the file: the test checks the file against it.
 */
final class KokoroWeightNames {
    private KokoroWeightNames() {}

    static Map<String, long[]> all() {
        Map<String, long[]> m = new LinkedHashMap<>();
        bert(m);
        linear(m, "bert_encoder", 512, 768);
        predictor(m);
        textEncoder(m);
        decoder(m);
        return m;
    }

    private static void bert(Map<String, long[]> m) {
        String e = "bert.embeddings.";
        m.put(e + "word_embeddings.weight", new long[] {178, 128});
        m.put(e + "position_embeddings.weight", new long[] {512, 128});
        m.put(e + "token_type_embeddings.weight", new long[] {2, 128});
        norm(m, e + "LayerNorm", 128);
        linear(m, "bert.encoder.embedding_hidden_mapping_in", 768, 128);
        String l = "bert.encoder.albert_layer_groups.0.albert_layers.0.";
        for (String p : new String[] {"query", "key", "value", "dense"}) linear(m, l + "attention." + p, 768, 768);
        norm(m, l + "attention.LayerNorm", 768);
        linear(m, l + "ffn", 2048, 768);
        linear(m, l + "ffn_output", 768, 2048);
        norm(m, l + "full_layer_layer_norm", 768);
    }

    private static void predictor(Map<String, long[]> m) {
        for (int i = 0; i < 6; i += 2) {
            lstm(m, "predictor.text_encoder.lstms." + i, 640, 256);
            linear(m, "predictor.text_encoder.lstms." + (i + 1) + ".fc", 1024, 128);
        }
        lstm(m, "predictor.lstm", 640, 256);
        linear(m, "predictor.duration_proj.linear_layer", 50, 512);
        lstm(m, "predictor.shared", 640, 256);
        for (String branch : new String[] {"F0", "N"}) {
            String b = "predictor." + branch + ".";
            adainResBlk(m, b + "0", 512, 512, false);
            adainResBlk(m, b + "1", 512, 256, true);
            adainResBlk(m, b + "2", 256, 256, false);
            conv(m, "predictor." + branch + "_proj", 1, 256, 1);
        }
    }

    private static void textEncoder(Map<String, long[]> m) {
        m.put("text_encoder.embedding.weight", new long[] {178, 512});
        for (int i = 0; i < 3; i++) {
            conv(m, "text_encoder.cnn." + i + ".0", 512, 512, 5);
            m.put("text_encoder.cnn." + i + ".1.gamma", new long[] {512});
            m.put("text_encoder.cnn." + i + ".1.beta", new long[] {512});
        }
        lstm(m, "text_encoder.lstm", 512, 256);
    }

    private static void decoder(Map<String, long[]> m) {
        conv(m, "decoder.F0_conv", 1, 1, 3);
        conv(m, "decoder.N_conv", 1, 1, 3);
        conv(m, "decoder.asr_res.0", 64, 512, 1);
        adainResBlk(m, "decoder.encode", 514, 1024, false);
        for (int i = 0; i < 3; i++) adainResBlk(m, "decoder.decode." + i, 1090, 1024, false);
        adainResBlk(m, "decoder.decode.3", 1090, 512, true);
        String g = "decoder.generator.";
        linear(m, g + "m_source.l_linear", 1, 9);
        conv(m, g + "noise_convs.0", 256, 22, 12);
        conv(m, g + "noise_convs.1", 128, 22, 1);
        adainResBlock1(m, g + "noise_res.0", 256, 7);
        adainResBlock1(m, g + "noise_res.1", 128, 11);
        m.put(g + "ups.0.weight", new long[] {512, 256, 20}); // ConvTranspose1d: [in, out, k]
        m.put(g + "ups.0.bias", new long[] {256});
        m.put(g + "ups.1.weight", new long[] {256, 128, 12});
        m.put(g + "ups.1.bias", new long[] {128});
        int[] kernels = {3, 7, 11};
        for (int i = 0; i < 6; i++) adainResBlock1(m, g + "resblocks." + i, i < 3 ? 256 : 128, kernels[i % 3]);
        conv(m, g + "conv_post", 22, 128, 7);
    }

    /** StyleTTS2's AdainResBlk1d: AdaIN1d norms (fc from the style), weight-normed convs, a 1×1 shortcut when the width changes. */
    private static void adainResBlk(Map<String, long[]> m, String p, int in, int out, boolean upsample) {
        linear(m, p + ".norm1.fc", 2L * in, 128);
        conv(m, p + ".conv1", out, in, 3);
        linear(m, p + ".norm2.fc", 2L * out, 128);
        conv(m, p + ".conv2", out, out, 3);
        if (in != out) m.put(p + ".conv1x1.weight", new long[] {out, in, 1});
        if (upsample) {
            m.put(p + ".pool.weight", new long[] {in, 1, 3}); // depthwise ConvTranspose1d
            m.put(p + ".pool.bias", new long[] {in});
        }
    }

    /** iSTFTNet's AdaINResBlock1: three (AdaIN, Snake, dilated conv, AdaIN, Snake, conv) steps. */
    private static void adainResBlock1(Map<String, long[]> m, String p, int ch, int k) {
        for (int j = 0; j < 3; j++) {
            conv(m, p + ".convs1." + j, ch, ch, k);
            conv(m, p + ".convs2." + j, ch, ch, k);
            linear(m, p + ".adain1." + j + ".fc", 2L * ch, 128);
            linear(m, p + ".adain2." + j + ".fc", 2L * ch, 128);
            m.put(p + ".alpha1." + j, new long[] {1, ch, 1});
            m.put(p + ".alpha2." + j, new long[] {1, ch, 1});
        }
    }

    private static void linear(Map<String, long[]> m, String p, long out, long in) {
        m.put(p + ".weight", new long[] {out, in});
        m.put(p + ".bias", new long[] {out});
    }

    private static void conv(Map<String, long[]> m, String p, long out, long in, long k) {
        m.put(p + ".weight", new long[] {out, in, k});
        m.put(p + ".bias", new long[] {out});
    }

    private static void norm(Map<String, long[]> m, String p, long c) {
        m.put(p + ".weight", new long[] {c});
        m.put(p + ".bias", new long[] {c});
    }

    private static void lstm(Map<String, long[]> m, String p, long in, long h) {
        for (String d : new String[] {"", "_reverse"}) {
            m.put(p + ".weight_ih_l0" + d, new long[] {4 * h, in});
            m.put(p + ".weight_hh_l0" + d, new long[] {4 * h, h});
            m.put(p + ".bias_ih_l0" + d, new long[] {4 * h});
            m.put(p + ".bias_hh_l0" + d, new long[] {4 * h});
        }
    }

    /** Where a hexgrad module's weights sit in the ONNX file: its export wrapped bert…text_encoder as "encoder" and the decoder as "decoder.decoder". */
    static String inFile(String hexgradName) {
        return hexgradName.startsWith("decoder.") ? "decoder." + hexgradName : "encoder." + hexgradName;
    }
}
