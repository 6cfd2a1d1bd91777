package dev.junction.messaging.instance;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.junction.messaging.apikey.Caller;
import dev.junction.messaging.common.Api;
import dev.junction.messaging.web.ApiException;
import dev.junction.messaging.web.Page;
import dev.junction.messaging.web.PageRequest;
import dev.junction.messaging.web.QueryParams;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import reactor.core.publisher.Mono;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** {@code /instances}. */
@RestController
@RequestMapping(Api.BASE + "/instances")
class InstanceController {

	private static final String NAME_PATTERN = "[A-Za-z0-9][A-Za-z0-9 ._-]*";

	private final InstanceService service;

	InstanceController(InstanceService service) {
		this.service = service;
	}

	@PostMapping
	Mono<ResponseEntity<Instance>> create(Caller caller, @Valid @RequestBody CreateInstanceRequest request) {
		return this.service
			.create(caller, request.name().trim(), request.channel(), finite("settings", request.settings()))
			.map((instance) -> ResponseEntity.created(URI.create(Api.BASE + "/instances/" + instance.id()))
				.body(instance));
	}

	@GetMapping
	Mono<Page<Instance>> list(Caller caller, @RequestParam(required = false) String channel,
			@RequestParam(required = false) String status, @RequestParam(required = false) Integer limit,
			@RequestParam(required = false) String cursor) {
		return this.service.list(caller, QueryParams.enumValue("channel", channel, Channel.class),
				QueryParams.enumValue("status", status, InstanceStatus.class), PageRequest.of(limit, cursor));
	}

	@GetMapping("/{id}")
	Mono<Instance> get(Caller caller, @PathVariable UUID id) {
		return this.service.get(caller, id);
	}

	@RequestMapping(path = "/{id}", method = { RequestMethod.PATCH, RequestMethod.PUT })
	Mono<Instance> update(Caller caller, @PathVariable UUID id, @Valid @RequestBody UpdateInstanceRequest request) {
		return this.service.update(caller, id, (request.name() != null) ? request.name().trim() : null,
				request.status(), finite("settings", request.settings()));
	}

	@DeleteMapping("/{id}")
	Mono<ResponseEntity<Void>> delete(Caller caller, @PathVariable UUID id) {
		return this.service.delete(caller, id).thenReturn(ResponseEntity.noContent().build());
	}

	/**
	 * {@code value} when every number in it is finite: JSON numbers too large for a
	 * double would be stored as infinity, so they are refused instead.
	 */
	private static <T> T finite(String path, T value) {
		if (value instanceof Map<?, ?> map) {
			map.forEach((key, nested) -> finite(path + "." + key, nested));
		}
		else if (value instanceof List<?> list) {
			for (int i = 0; i < list.size(); i++) {
				finite(path + "[" + i + "]", list.get(i));
			}
		}
		else if (value instanceof Double number && !Double.isFinite(number)) {
			throw ApiException.invalid(path, "number out of range");
		}
		return value;
	}

	/**
	 * Request to create an instance.
	 *
	 * @param name unique name
	 * @param channel the network
	 * @param settings channel-specific settings
	 */
	record CreateInstanceRequest(@NotBlank @Size(max = 100) @Pattern(regexp = NAME_PATTERN) String name,
			@NotNull Channel channel, @Size(max = 100) Map<String, Object> settings) {
	}

	/**
	 * Changes to an instance; absent fields stay as they are.
	 *
	 * @param name new name
	 * @param status new connection state
	 * @param settings new settings (replace the old ones)
	 */
	record UpdateInstanceRequest(@Size(min = 1, max = 100) @Pattern(regexp = NAME_PATTERN) String name,
			InstanceStatus status, @Size(max = 100) Map<String, Object> settings) {
	}

}
