package dev.junction.gateway.provider;

import java.time.Duration;
import java.util.List;

import dev.junction.gateway.error.DeniedException;
import dev.junction.gateway.error.UpstreamException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class KeyPoolTests {

	private static final Duration COOLDOWN = Duration.ofMillis(200);

	private final KeyPool pool = new KeyPool("p", List.of(new ProviderKey("sk-only", 1, null)), Duration.ofSeconds(30),
			COOLDOWN);

	@Test
	void aRefusedKeyIsProbedByOneCallAtATimeOnceItsCooldownIsOver() throws InterruptedException {
		refuse();
		assertThatExceptionOfType(DeniedException.class).isThrownBy(() -> this.pool.pick("m"))
			.satisfies((denied) -> assertThat(denied.code()).isEqualTo("no_usable_provider_key"));
		Thread.sleep(COOLDOWN.toMillis() + 50);
		KeyPool.Pick probe = this.pool.pick("m");
		assertThat(probe.probe()).isTrue();
		assertThatExceptionOfType(DeniedException.class).as("a second probe while the first runs")
			.isThrownBy(() -> this.pool.pick("m"));
		this.pool.succeeded(probe);
		this.pool.finished(probe);
		KeyPool.Pick next = this.pool.pick("m");
		assertThat(next.probe()).isFalse();
		assertThat(this.pool.states()).extracting(KeyPool.KeyState::state)
			.containsExactly(KeyPool.KeyState.State.IN_ROTATION);
	}

	@Test
	void aProbeThatProvesNothingWaitsAnotherCooldown() throws InterruptedException {
		refuse();
		Thread.sleep(COOLDOWN.toMillis() + 50);
		KeyPool.Pick probe = this.pool.pick("m");
		this.pool.failed(probe, UpstreamException.status("p", 500, null, null, "down", null));
		this.pool.finished(probe);
		assertThatExceptionOfType(DeniedException.class).isThrownBy(() -> this.pool.pick("m"));
		assertThat(this.pool.states().get(0).state()).isEqualTo(KeyPool.KeyState.State.REFUSED);
	}

	@Test
	void aProbeThatIsRateLimitedBringsTheKeyBackResting() throws InterruptedException {
		refuse();
		Thread.sleep(COOLDOWN.toMillis() + 50);
		KeyPool.Pick probe = this.pool.pick("m");
		this.pool.failed(probe, UpstreamException.status("p", 429, null, null, "slow down", Duration.ofSeconds(5)));
		this.pool.finished(probe);
		assertThat(this.pool.states().get(0).state()).isEqualTo(KeyPool.KeyState.State.RESTING);
		assertThatExceptionOfType(DeniedException.class).isThrownBy(() -> this.pool.pick("m"))
			.satisfies((denied) -> assertThat(denied.status()).isEqualTo(429));
	}

	private void refuse() {
		KeyPool.Pick pick = this.pool.pick("m");
		this.pool.failed(pick, UpstreamException.status("p", 401, null, null, "no", null));
		this.pool.finished(pick);
	}

}
