package dev.junction.mock.routes;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import dev.junction.mock.MockProviderApplication;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/** A path outside the emulator's routes is a 404 and nothing in the log. */
@ExtendWith(OutputCaptureExtension.class)
class UnknownPathIntegrationTests {

	@Test
	void answersAPathThatClimbsOutOfTheRootWith404AndNoWarning(CapturedOutput output) throws Exception {
		try (ConfigurableApplicationContext context = MockProviderApplication.application()
			.run("--server.port=0", "--server.address=127.0.0.1")) {
			int port = ((WebServerApplicationContext) context).getWebServer().getPort();
			HttpResponse<String> response = HttpClient.newHttpClient()
				.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/%2e%2e/admin")).build(),
						HttpResponse.BodyHandlers.ofString());
			assertThat(response.statusCode()).isEqualTo(404);
			assertThat(output.getAll()).doesNotContain("Path contains");
		}
	}

}
