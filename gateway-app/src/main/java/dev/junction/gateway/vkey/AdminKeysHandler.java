package dev.junction.gateway.vkey;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.junction.gateway.auth.GatewayKeys;
import dev.junction.gateway.chat.RequestBodies;
import dev.junction.gateway.error.InvalidRequestException;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

import static org.springframework.web.reactive.function.server.RequestPredicates.DELETE;
import static org.springframework.web.reactive.function.server.RequestPredicates.GET;
import static org.springframework.web.reactive.function.server.RequestPredicates.PATCH;
import static org.springframework.web.reactive.function.server.RequestPredicates.POST;
import static org.springframework.web.reactive.function.server.RequestPredicates.path;
import static org.springframework.web.reactive.function.server.RouterFunctions.route;

/**
 * The admin API for virtual keys under {@code /admin/v1/keys}, for admin keys only
 * ({@code Authorization: Bearer <admin key>}); errors in OpenAI's error JSON, as
 * everywhere on the gateway. A key's secret is answered once, when it is created or
 * rotated.
 */
public final class AdminKeysHandler {

	/** Why the admin API refuses every call when no admin key is configured. */
	static final String OFF = "The admin API is off: no admin key is configured (junction.gateway.auth.admin-keys).";

	private static final Set<String> FIELDS = Set.of("name", "owner", "models", "rate_limit", "budget", "expires_at");

	private final KeyService keys;

	private final GatewayKeys gatewayKeys;

	private final RequestBodies bodies;

	private final ObjectMapper mapper;

	public AdminKeysHandler(KeyService keys, GatewayKeys gatewayKeys, RequestBodies bodies, ObjectMapper mapper) {
		this.keys = keys;
		this.gatewayKeys = gatewayKeys;
		this.bodies = bodies;
		this.mapper = mapper;
	}

	RouterFunction<ServerResponse> routes() {
		return route(POST("/admin/v1/keys"), guarded(this::create)).andRoute(GET("/admin/v1/keys"), guarded(this::list))
			.andRoute(GET("/admin/v1/keys/{id}"), guarded(this::get))
			.andRoute(PATCH("/admin/v1/keys/{id}"), guarded(this::update))
			.andRoute(DELETE("/admin/v1/keys/{id}"), guarded(this::revoke))
			.andRoute(POST("/admin/v1/keys/{id}/revoke"), guarded(this::revoke))
			.andRoute(POST("/admin/v1/keys/{id}/rotate"), guarded(this::rotate))
			.andRoute(GET("/admin/v1/keys/{id}/spend"), guarded(this::spend))
			.andRoute(path("/admin/**"), guarded((request) -> Mono.error(InvalidRequestException
				.notFound("No admin operation " + request.method() + " " + request.path() + "."))));
	}

	private org.springframework.web.reactive.function.server.HandlerFunction<ServerResponse> guarded(
			org.springframework.web.reactive.function.server.HandlerFunction<ServerResponse> handler) {
		return (request) -> {
			String authorization = request.headers().firstHeader(HttpHeaders.AUTHORIZATION);
			if (!this.gatewayKeys.hasAdminKeys()) {
				return Mono.error(InvalidRequestException.forbidden(OFF));
			}
			if (authorization == null) {
				return Mono.error(InvalidRequestException.unauthorized());
			}
			if (!this.gatewayKeys.isAdmin(authorization)) {
				return Mono.error(InvalidRequestException.forbidden("The admin API needs an admin key."));
			}
			return handler.handle(request);
		};
	}

	private Mono<ServerResponse> create(ServerRequest request) {
		return body(request).flatMap((body) -> {
			VirtualKey template = fromBody(body,
					new VirtualKey("", "", "", null, List.of(), null, null, null, null, null, this.keys.now()), true);
			return newSecret(null).flatMap((secret) -> {
				String id = Secrets.idOf(secret);
				VirtualKey key = new VirtualKey(id, Secrets.hash(secret), template.name(), template.owner(),
						template.models(), template.requestsPerMinute(), template.tokensPerMinute(), template.budget(),
						template.expiresAt(), null, template.createdAt());
				Mono<Void> stored = this.keys.store().insert(key).doOnSuccess((done) -> this.keys.changed(id));
				return stored.then(Mono.defer(() -> {
					ObjectNode json = json(key);
					json.put("key", secret);
					return answer(HttpStatus.CREATED, json);
				}));
			});
		});
	}

	/**
	 * A new secret for the key {@code id}, or for a new key; made off the event loop (the
	 * system's random source may block).
	 */
	private static Mono<String> newSecret(@Nullable String id) {
		return Mono.fromCallable(() -> Secrets.newSecret((id != null) ? id : Secrets.newId()))
			.subscribeOn(Schedulers.boundedElastic());
	}

	private Mono<ServerResponse> list(ServerRequest request) {
		return this.keys.store().all().map(this::json).collectList().flatMap((keys) -> {
			ObjectNode json = this.mapper.createObjectNode().put("object", "list");
			ArrayNode data = json.putArray("data");
			keys.forEach(data::add);
			return answer(HttpStatus.OK, json);
		});
	}

	private Mono<ServerResponse> get(ServerRequest request) {
		return find(request).flatMap((key) -> answer(HttpStatus.OK, json(key)));
	}

	private Mono<ServerResponse> update(ServerRequest request) {
		return find(request).zipWith(body(request)).flatMap((found) -> {
			VirtualKey key = fromBody(found.getT2(), found.getT1(), false);
			return this.keys.store()
				.update(key)
				.doOnSuccess((done) -> this.keys.changed(key.id()))
				.then(Mono.defer(() -> answer(HttpStatus.OK, json(key))));
		});
	}

	private Mono<ServerResponse> revoke(ServerRequest request) {
		return find(request).flatMap((key) -> {
			VirtualKey revoked = (key.revokedAt() != null) ? key
					: new VirtualKey(key.id(), key.secretHash(), key.name(), key.owner(), key.models(),
							key.requestsPerMinute(), key.tokensPerMinute(), key.budget(), key.expiresAt(),
							this.keys.now(), key.createdAt());
			return this.keys.store()
				.update(revoked)
				.doOnSuccess((done) -> this.keys.changed(key.id()))
				.then(Mono.defer(() -> answer(HttpStatus.OK, json(revoked))));
		});
	}

	private Mono<ServerResponse> rotate(ServerRequest request) {
		return find(request).flatMap((key) -> {
			if (key.revokedAt() != null) {
				return Mono.error(InvalidRequestException.invalidField(null, "A revoked key cannot be rotated."));
			}
			return newSecret(key.id()).flatMap((secret) -> {
				VirtualKey rotated = key.withSecretHash(Secrets.hash(secret));
				return this.keys.store()
					.update(rotated)
					.doOnSuccess((done) -> this.keys.changed(key.id()))
					.then(Mono.defer(() -> {
						ObjectNode json = json(rotated);
						json.put("key", secret);
						return answer(HttpStatus.OK, json);
					}));
			});
		});
	}

	private Mono<ServerResponse> spend(ServerRequest request) {
		LocalDate to = day(request, "to", LocalDate.now(ZoneOffset.UTC));
		LocalDate from = day(request, "from", LocalDate.EPOCH);
		return find(request).flatMap((key) -> {
			Budget budget = key.budget();
			Instant now = this.keys.now();
			Mono<long[]> state = (budget != null) ? this.keys.budgets().state(key.id(), budget.period().start(now))
					: Mono.just(new long[] { 0, 0 });
			return this.keys.spend().spend(key.id(), from, to).collectList().zipWith(state).flatMap((found) -> {
				ObjectNode json = this.mapper.createObjectNode().put("object", "spend").put("id", key.id());
				json.put("from", from.toString()).put("to", to.toString());
				long[] total = new long[2];
				Map<String, long[]> byModel = new LinkedHashMap<>();
				ArrayNode days = this.mapper.createArrayNode();
				for (KeyStore.SpendRow row : found.getT1()) {
					total[0] += row.costNanos();
					total[1] += row.byokCostNanos();
					long[] sums = byModel.computeIfAbsent(row.model(), (model) -> new long[5]);
					sums[0] += row.costNanos();
					sums[1] += row.byokCostNanos();
					sums[2] += row.promptTokens();
					sums[3] += row.completionTokens();
					sums[4] += row.requests();
					ObjectNode day = days.addObject().put("day", row.day().toString()).put("model", row.model());
					usage(day, row.costNanos(), row.byokCostNanos(), row.promptTokens(), row.completionTokens(),
							row.requests());
				}
				json.put("usd", Money.decimal(total[0]));
				json.put("byok_usd", Money.decimal(total[1]));
				ArrayNode models = json.putArray("models");
				byModel.forEach((model, sums) -> usage(models.addObject().put("model", model), sums[0], sums[1],
						sums[2], sums[3], sums[4]));
				json.set("days", days);
				if (budget != null) {
					long[] spentReserved = found.getT2();
					ObjectNode period = json.putObject("budget")
						.put("usd", Money.decimal(budget.nanos()))
						.put("period", budget.period().id())
						.put("period_start", budget.period().start(now).toString())
						.put("spent_usd", Money.decimal(spentReserved[0]))
						.put("reserved_usd", Money.decimal(spentReserved[1]))
						.put("remaining_usd",
								Money.decimal(Math.max(0, budget.nanos() - spentReserved[0] - spentReserved[1])));
					Instant end = budget.period().end(now);
					period.put("resets_at", (end != null) ? end.toString() : null);
				}
				return answer(HttpStatus.OK, json);
			});
		});
	}

	/**
	 * A spend entry: {@code usd} debited, {@code byok_usd} paid by the caller with its
	 * own provider key.
	 */
	private static void usage(ObjectNode json, long nanos, long byokNanos, long prompt, long completion,
			long requests) {
		json.put("usd", Money.decimal(nanos))
			.put("byok_usd", Money.decimal(byokNanos))
			.put("prompt_tokens", prompt)
			.put("completion_tokens", completion)
			.put("requests", requests);
	}

	private static LocalDate day(ServerRequest request, String name, LocalDate otherwise) {
		String value = request.queryParam(name).orElse(null);
		if (value == null) {
			return otherwise;
		}
		try {
			return LocalDate.parse(value);
		}
		catch (DateTimeParseException ex) {
			throw InvalidRequestException.invalidField(name, "'" + name + "' must be a day as YYYY-MM-DD.");
		}
	}

	private Mono<VirtualKey> find(ServerRequest request) {
		String id = request.pathVariable("id");
		return this.keys.store()
			.find(id)
			.switchIfEmpty(Mono.error(() -> InvalidRequestException.notFound("No virtual key '" + id + "'.")));
	}

	private Mono<ObjectNode> body(ServerRequest request) {
		return this.bodies.read(request.exchange().getRequest()).defaultIfEmpty(new byte[0]).map((bytes) -> {
			if (new String(bytes, java.nio.charset.StandardCharsets.UTF_8).isBlank()) {
				throw InvalidRequestException.malformedJson("the request body is empty");
			}
			JsonNode tree;
			try {
				tree = this.mapper.readTree(bytes);
			}
			catch (JacksonException ex) {
				throw InvalidRequestException.malformedJson(ex);
			}
			if (!(tree instanceof ObjectNode object)) {
				throw InvalidRequestException.malformedJson("the request body must be a JSON object");
			}
			for (String field : object.propertyNames()) {
				if (!FIELDS.contains(field)) {
					throw InvalidRequestException.invalidField(field, "Unknown field '" + field + "'; a key takes "
							+ String.join(", ", FIELDS.stream().sorted().toList()) + ".");
				}
			}
			return object;
		});
	}

	/** {@code key} with what {@code body} sets; on creation a name is required. */
	private VirtualKey fromBody(ObjectNode body, VirtualKey key, boolean creating) {
		String name = key.name();
		if (body.has("name") || creating) {
			name = text(body, "name", true);
			if (name == null || name.isBlank() || name.length() > 200) {
				throw InvalidRequestException.invalidField("name", "'name' must be a string of 1 to 200 characters.");
			}
		}
		String owner = body.has("owner") ? text(body, "owner", false) : key.owner();
		if (owner != null && owner.length() > 200) {
			throw InvalidRequestException.invalidField("owner", "'owner' must be a string of at most 200 characters.");
		}
		List<String> models = key.models();
		if (body.has("models")) {
			JsonNode list = body.get("models");
			if (list.isNull()) {
				models = List.of();
			}
			else if (!list.isArray()) {
				throw InvalidRequestException.invalidField("models",
						"'models' must be an array of model names or patterns.");
			}
			else {
				List<String> names = new ArrayList<>();
				for (JsonNode model : list) {
					if (!model.isString() || model.asString().isBlank() || model.asString().contains("\n")) {
						throw InvalidRequestException.invalidField("models",
								"'models' must hold model names or patterns such as \"emu/*\".");
					}
					names.add(model.asString());
				}
				// Stored one per line in a column of 4,000 characters.
				if (String.join("\n", names).length() > 4000) {
					throw InvalidRequestException.invalidField("models",
							"'models' must hold at most 4,000 characters in all.");
				}
				models = List.copyOf(names);
			}
		}
		Long requests = key.requestsPerMinute();
		Long tokens = key.tokensPerMinute();
		if (body.has("rate_limit")) {
			JsonNode limit = body.get("rate_limit");
			if (limit.isNull()) {
				requests = null;
				tokens = null;
			}
			else if (!limit.isObject()) {
				throw InvalidRequestException.invalidField("rate_limit",
						"'rate_limit' must be an object with requests_per_minute and tokens_per_minute.");
			}
			else {
				requests = positive(limit, "requests_per_minute");
				tokens = positive(limit, "tokens_per_minute");
			}
		}
		Budget budget = key.budget();
		if (body.has("budget")) {
			budget = budget(body.get("budget"));
		}
		Instant expires = key.expiresAt();
		if (body.has("expires_at")) {
			String value = text(body, "expires_at", false);
			try {
				expires = (value != null) ? Instant.parse(value) : null;
			}
			catch (DateTimeParseException ex) {
				throw InvalidRequestException.invalidField("expires_at",
						"'expires_at' must be an ISO-8601 instant such as 2026-12-31T23:59:59Z.");
			}
		}
		return new VirtualKey(key.id(), key.secretHash(), name, owner, models, requests, tokens, budget, expires,
				key.revokedAt(), key.createdAt());
	}

	private static @Nullable Budget budget(JsonNode budget) {
		if (budget.isNull()) {
			return null;
		}
		JsonNode usd = budget.path("usd");
		if (!budget.isObject() || !usd.isNumber() || usd.asDouble() < 0 || usd.asDouble() > 1e9) {
			throw InvalidRequestException.invalidField("budget",
					"'budget' must be an object such as {\"usd\": 5.0, \"period\": \"monthly\"}.");
		}
		String periodName = budget.path("period").isString() ? budget.path("period").asString() : "total";
		Period period = Period.of(periodName);
		if (period == null) {
			throw InvalidRequestException.invalidField("budget.period",
					"'budget.period' must be daily, monthly or total.");
		}
		return new Budget(Money.nanos(usd.asDouble()), period);
	}

	private static @Nullable Long positive(JsonNode object, String field) {
		JsonNode value = object.get(field);
		if (value == null || value.isNull()) {
			return null;
		}
		if (!value.canConvertToLong() || !value.isIntegralNumber() || value.asLong() <= 0) {
			throw InvalidRequestException.invalidField("rate_limit." + field,
					"'" + field + "' must be a positive integer.");
		}
		return value.asLong();
	}

	private static @Nullable String text(ObjectNode body, String field, boolean required) {
		JsonNode value = body.get(field);
		if (value == null || value.isNull()) {
			if (required) {
				throw InvalidRequestException.missingField(field);
			}
			return null;
		}
		if (!value.isString()) {
			throw InvalidRequestException.invalidField(field, "'" + field + "' must be a string.");
		}
		return value.asString();
	}

	private ObjectNode json(VirtualKey key) {
		ObjectNode json = this.mapper.createObjectNode()
			.put("object", "virtual_key")
			.put("id", key.id())
			.put("name", key.name())
			.put("owner", key.owner());
		ArrayNode models = json.putArray("models");
		key.models().forEach(models::add);
		ObjectNode limit = json.putObject("rate_limit");
		limit.put("requests_per_minute", key.requestsPerMinute());
		limit.put("tokens_per_minute", key.tokensPerMinute());
		Budget budget = key.budget();
		if (budget != null) {
			json.putObject("budget").put("usd", Money.decimal(budget.nanos())).put("period", budget.period().id());
		}
		else {
			json.putNull("budget");
		}
		Instant now = this.keys.now();
		json.put("status", (key.revokedAt() != null) ? "revoked" : key.activeAt(now) ? "active" : "expired");
		json.put("created_at", key.createdAt().toString());
		json.put("expires_at", (key.expiresAt() != null) ? key.expiresAt().toString() : null);
		json.put("revoked_at", (key.revokedAt() != null) ? key.revokedAt().toString() : null);
		return json;
	}

	private Mono<ServerResponse> answer(HttpStatus status, ObjectNode json) {
		return ServerResponse.status(status).contentType(MediaType.APPLICATION_JSON).bodyValue(json.toString());
	}

}
