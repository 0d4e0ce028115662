package dev.audioengine.models.asr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.junit.jupiter.api.Test;

class FloatRingTest {
    @Test
    void keepsWhatWasAppendedAtItsPositionThroughWrapsAndGrowth() {
        Random rnd = new Random(7);
        FloatRing ring = new FloatRing();
        long appended = 0;
        for (int step = 0; step < 5000; step++) {
            int n = rnd.nextInt(rnd.nextInt(20) == 0 ? 20_000 : 900);
            float[] block = new float[n + 4];
            for (int i = 0; i < n; i++) block[i + 2] = appended + i; // the value is its position (exact below 2^24)
            ring.append(block, 2, n);
            appended += n;
            ring.discardBefore(ring.start() + rnd.nextInt(Math.max(1, ring.size() * 2 / 3 + 1)));
            if (ring.size() > 0 && ring.end() < (1 << 24)) {
                long from = ring.start() + rnd.nextInt(ring.size());
                long to = from + rnd.nextInt((int) (ring.end() - from) + 1);
                float[] out = new float[(int) (to - from)];
                ring.copy(from, to, out, 0);
                for (int i = 0; i < out.length; i++) assertThat(out[i]).isEqualTo((float) (from + i));
                assertThat(ring.get(from)).isEqualTo((float) from);
            }
            assertThat(ring.end()).isEqualTo(appended);
        }
    }

    @Test
    void discardingPastTheEndEmptiesItAndLaterValuesKeepTheirPositions() {
        FloatRing ring = new FloatRing();
        ring.append(new float[] {1, 2, 3}, 0, 3);
        ring.discardBefore(10);
        assertThat(ring.size()).isZero();
        assertThat(ring.start()).isEqualTo(3);
        ring.append(4f);
        assertThat(ring.get(3)).isEqualTo(4f);
    }

    @Test
    void readingWhatIsNotKeptNamesWhatIs() {
        FloatRing ring = new FloatRing();
        ring.append(new float[10], 0, 10);
        ring.discardBefore(4);
        assertThatThrownBy(() -> ring.copy(2, 8, new float[6], 0))
                .hasMessageContaining("[2, 8) is not kept: [4, 10) is");
        assertThatThrownBy(() -> ring.get(10)).hasMessageContaining("[4, 10)");
    }
}
