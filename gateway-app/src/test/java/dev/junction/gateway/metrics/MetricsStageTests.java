package dev.junction.gateway.metrics;

import dev.junction.gateway.error.DeniedException;
import dev.junction.gateway.error.UpstreamException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MetricsStageTests {

	@Test
	void tagsAnErrorTypeAnUpstreamMadeUpAsOther() {
		assertThat(MetricsStage.errorType(UpstreamException.status("p", 400, "sk-quoted-key", null, "m", null)))
			.isEqualTo("other");
		assertThat(MetricsStage.errorType(UpstreamException.status("p", 400, "invalid_request_error", null, "m", null)))
			.isEqualTo("invalid_request_error");
		assertThat(MetricsStage.errorType(DeniedException.noUsableKey("m", null))).isEqualTo("server_error");
		assertThat(MetricsStage.errorType(new IllegalStateException("x"))).isEqualTo("internal_error");
	}

}
