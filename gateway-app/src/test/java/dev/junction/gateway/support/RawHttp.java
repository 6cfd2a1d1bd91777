package dev.junction.gateway.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** HTTP/1.1 over a plain socket, for requests no client library would send: stalled, oversized, cut short. */
public final class RawHttp implements AutoCloseable {

	private final Socket socket;

	private RawHttp(Socket socket) {
		this.socket = socket;
	}

	public static RawHttp connect(int port) throws IOException {
		Socket socket = new Socket("127.0.0.1", port);
		socket.setSoTimeout(15_000);
		return new RawHttp(socket);
	}

	public RawHttp send(String text) throws IOException {
		this.socket.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
		this.socket.getOutputStream().flush();
		return this;
	}

	/** Reads one response with a {@code Content-Length}. */
	public Response read() throws IOException {
		InputStream in = this.socket.getInputStream();
		ByteArrayOutputStream head = new ByteArrayOutputStream();
		while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
			int b = in.read();
			if (b < 0) {
				throw new IOException("connection closed after " + head.size() + " bytes of headers");
			}
			head.write(b);
		}
		String[] lines = head.toString(StandardCharsets.ISO_8859_1).split("\r\n");
		int status = Integer.parseInt(lines[0].split(" ")[1]);
		Map<String, String> headers = new LinkedHashMap<>();
		for (int i = 1; i < lines.length; i++) {
			int colon = lines[i].indexOf(':');
			if (colon > 0) {
				headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
			}
		}
		int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
		byte[] body = in.readNBytes(length);
		return new Response(status, headers, new String(body, StandardCharsets.UTF_8));
	}

	/** Whether the server closes the connection within {@code wait}, sending nothing more. */
	public boolean closedWithin(Duration wait) throws IOException {
		this.socket.setSoTimeout(Math.toIntExact(wait.toMillis()));
		try {
			return this.socket.getInputStream().read() < 0;
		}
		catch (SocketTimeoutException ex) {
			return false;
		}
		catch (IOException ex) {
			return true;
		}
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
	}

	/**
	 * A response.
	 *
	 * @param status the status code
	 * @param headers the headers, names in lower case
	 * @param body the body
	 */
	public record Response(int status, Map<String, String> headers, String body) {
	}

}
