package dev.junction.gateway.support;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A client of the gateway's admin API for virtual keys. */
public final class AdminApi {

	private final String baseUrl;

	private final String adminKey;

	public AdminApi(String baseUrl, String adminKey) {
		this.baseUrl = baseUrl;
		this.adminKey = adminKey;
	}

	/**
	 * Creates a key from {@code body}; its JSON, secret included, or a failure if not
	 * 201.
	 */
	public JsonNode create(String body) {
		HttpResponse<String> response = send("POST", "/admin/v1/keys", body);
		if (response.statusCode() != 201) {
			throw new IllegalStateException("create answered " + response.statusCode() + ": " + response.body());
		}
		return Json.parse(response.body());
	}

	public JsonNode spend(String id) {
		HttpResponse<String> response = send("GET", "/admin/v1/keys/" + id + "/spend", null);
		if (response.statusCode() != 200) {
			throw new IllegalStateException("spend answered " + response.statusCode() + ": " + response.body());
		}
		return Json.parse(response.body());
	}

	/**
	 * The key's spend once {@code requests} requests are recorded, failing if more are.
	 */
	public JsonNode awaitSpend(String id, long requests) {
		JsonNode spend = await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> spend(id), (recorded) -> requests(recorded) >= requests);
		assertThat(requests(spend)).as(spend.toString()).isEqualTo(requests);
		return spend;
	}

	/** The requests a spend answer records, over all its days. */
	public static long requests(JsonNode spend) {
		long requests = 0;
		for (JsonNode day : spend.path("days")) {
			requests += day.path("requests").asLong();
		}
		return requests;
	}

	/** A dollar amount of the admin API in nano-dollars. */
	public static long nanos(JsonNode usd) {
		return new java.math.BigDecimal(usd.asString(usd.toString())).movePointRight(9).longValueExact();
	}

	public HttpResponse<String> send(String method, String path, String body) {
		return send(method, path, body, "Bearer " + this.adminKey);
	}

	public HttpResponse<String> send(String method, String path, String body, String authorization) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(this.baseUrl + path))
			.timeout(Duration.ofSeconds(30))
			.method(method,
					(body != null) ? HttpRequest.BodyPublishers.ofString(body) : HttpRequest.BodyPublishers.noBody());
		if (body != null) {
			request.header("Content-Type", "application/json");
		}
		if (authorization != null) {
			request.header("Authorization", authorization);
		}
		return Http.send(request.build());
	}

}
