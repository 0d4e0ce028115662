package dev.audioengine.blocks;

import dev.audioengine.api.testkit.RandomTensors;
import dev.audioengine.api.testkit.Seeds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class OverlapAddTest {

    @ParameterizedTest(name = "length {0}, chunk {1}, overlap {2}")
    @CsvSource({"1000,160,40", "160,160,40", "161,160,40", "7,160,40", "999,100,0", "1234,64,32", "0,16,4"})
    void identityProcessingReturnsTheSignal(int length, int chunk, int overlap) {
        long seed = Seeds.fresh();
        float[] x = new RandomTensors(seed).uniform(length, -1, 1);
        OverlapAdd ola = new OverlapAdd(chunk, overlap);
        List<float[]> pieces = ola.split(x);
        int[] starts = ola.starts(length);
        assertThat(starts[starts.length - 1] + chunk).as("chunks cover the signal").isGreaterThanOrEqualTo(length);
        if (starts.length > 1) assertThat(starts[starts.length - 2] + chunk).as("no chunk more than needed").isLessThan(length);
        float[] y = ola.join(pieces, length);
        for (int i = 0; i < length; i++) assertThat(y[i]).as("sample %d, %s", i, Seeds.describe(seed)).isCloseTo(x[i], within(1e-6f));
    }

    @Test
    void crossFadeWeightsMoveFromOneChunkToTheNext() {
        OverlapAdd ola = new OverlapAdd(8, 3);
        float[] ones = {1, 1, 1, 1, 1, 1, 1, 1}, zeros = new float[8];
        float[] y = ola.join(List.of(ones, zeros), 13);
        assertThat(y).containsExactly(1, 1, 1, 1, 1, 0.75f, 0.5f, 0.25f, 0, 0, 0, 0, 0);
        assertThatThrownBy(() -> new OverlapAdd(8, 5)).hasMessageContaining("overlap");
        assertThatThrownBy(() -> ola.join(List.of(ones), 13)).hasMessageContaining("2 chunks");
    }
}
