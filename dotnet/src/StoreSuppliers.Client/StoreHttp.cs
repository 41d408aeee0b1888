using System;
using System.Collections.Generic;
using System.Net.Http;
using System.Net.Http.Headers;
using System.Net.Sockets;
using System.Text;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using System.Threading;
using System.Threading.Tasks;

namespace StoreSuppliers;

/// <summary>The one place that sends requests: key header, time-outs, retries, and refusals as exceptions.</summary>
internal sealed class StoreHttp
{
    public static readonly byte[] EmptyObject = Encoding.UTF8.GetBytes("{}");
    private static readonly TimeSpan MaxBackoff = TimeSpan.FromSeconds(8);
    private readonly HttpClient _http;
    private readonly string _baseUrl;
    private readonly string _apiKey;
    private readonly StoreClientOptions _options;

    public StoreHttp(HttpClient http, Uri baseUri, StoreClientOptions options)
    {
        _http = http;
        _baseUrl = baseUri.ToString().TrimEnd('/');
        _apiKey = options.ApiKey!;
        _options = options;
    }

    public static string Segment(string value, string name)
    {
        if (string.IsNullOrEmpty(value)) throw new ArgumentException($"{name} is required.", name);
        return Uri.EscapeDataString(value);
    }

    public static byte[] Json<T>(T value, JsonTypeInfo<T> info) => JsonSerializer.SerializeToUtf8Bytes(value, info);

    public async Task<T> SendAsync<T>(StoreRequest request, JsonTypeInfo<T> info, CancellationToken cancellationToken) =>
        (await SendAsync(request, cancellationToken).ConfigureAwait(false)).Read(info);

    /// <summary>An operation whose 202 answers another type than its other success (see StoreAnswer).</summary>
    public async Task<StoreAnswer<TResult, TAccepted>> SendAsync<TResult, TAccepted>(StoreRequest request, JsonTypeInfo<TResult> result, JsonTypeInfo<TAccepted> accepted, CancellationToken cancellationToken)
        where TResult : class
        where TAccepted : class
    {
        var response = await SendAsync(request, cancellationToken).ConfigureAwait(false);
        return response.StatusCode == 202
            ? new StoreAnswer<TResult, TAccepted>(response.StatusCode, null, response.Read(accepted))
            : new StoreAnswer<TResult, TAccepted>(response.StatusCode, response.Read(result), null);
    }

    public async Task<StoreResponse> SendAsync(StoreRequest request, CancellationToken cancellationToken)
    {
        var url = Url(request);
        var maxRetries = request.Options?.MaxRetries ?? _options.MaxRetries;
        // One key for the whole call: a retry of a create whose answer was lost answers the first result, made once.
        var key = request.Idempotent ? request.Options?.IdempotencyKey ?? Guid.NewGuid().ToString() : null;
        for (var attempt = 0; ; attempt++)
        {
            cancellationToken.ThrowIfCancellationRequested();
            TimeSpan? retryAfter = null;
            try
            {
                return await SendOnceAsync(request, url, key, cancellationToken).ConfigureAwait(false);
            }
            catch (StoreApiException e) when (attempt < maxRetries && request.RetrySafe && e.StatusCode is 429 or 503)
            {
                retryAfter = e.RetryAfter;
            }
            catch (StoreApiException e) when (attempt < maxRetries && key is not null && e.Code == "idempotencyKeyInProgress")
            {
                retryAfter = e.RetryAfter;
            }
            catch (StoreTimeoutException) when (attempt < maxRetries && request.RetrySafe)
            {
            }
            catch (StoreConnectionException e) when (attempt < maxRetries && (request.RetrySafe || e.NotSent))
            {
            }
            await Task.Delay(Delay(attempt, retryAfter), cancellationToken).ConfigureAwait(false);
        }
    }

    private async Task<StoreResponse> SendOnceAsync(StoreRequest request, string url, string? key, CancellationToken cancellationToken)
    {
        var timeout = request.Options?.Timeout ?? _options.Timeout;
        using var timer = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timer.CancelAfter(timeout);
        using var message = Message(request, url, key);
        HttpResponseMessage response;
        try
        {
            response = await _http.SendAsync(message, HttpCompletionOption.ResponseContentRead, timer.Token).ConfigureAwait(false);
        }
        catch (OperationCanceledException e) when (cancellationToken.IsCancellationRequested)
        {
            // The caller's own cancellation, carrying the caller's token.
            throw new OperationCanceledException(e.Message, e, cancellationToken);
        }
        catch (OperationCanceledException e)
        {
            // Our timer, or the Timeout of an HttpClient that was passed in.
            throw new StoreTimeoutException(timer.IsCancellationRequested ? timeout : _http.Timeout, e);
        }
        catch (HttpRequestException e)
        {
            throw new StoreConnectionException(Scrub($"Could not reach {new Uri(_baseUrl).GetLeftPart(UriPartial.Authority)}: {Describe(e)}"), NotSent(e), e);
        }
        using (response)
        {
            var bytes = await response.Content.ReadAsByteArrayAsync().ConfigureAwait(false);
            var status = (int)response.StatusCode;
            var root = Parse(bytes);
            if (status >= 200 && status < 300)
            {
                var result = root is { ValueKind: JsonValueKind.Object } o && o.TryGetProperty("result", out var inner) ? inner : root ?? default;
                return new StoreResponse(status, result);
            }
            throw Refusal(response, status, root);
        }
    }

    private HttpRequestMessage Message(StoreRequest request, string url, string? key)
    {
        var message = new HttpRequestMessage(new HttpMethod(request.Method), url);
        var headers = message.Headers;
        headers.Accept.Add(new MediaTypeWithQualityHeaderValue("application/json"));
        headers.TryAddWithoutValidation("User-Agent", $"store-suppliers-dotnet/{StoreClient.Version}");
        foreach (var h in _options.DefaultHeaders) headers.TryAddWithoutValidation(h.Key, h.Value);
        if (request.Options is { } options)
        {
            foreach (var h in options.Headers) headers.TryAddWithoutValidation(h.Key, h.Value);
            if (options is DispatchOptions { RespondAsync: true }) headers.TryAddWithoutValidation("Prefer", "respond-async");
        }
        headers.Remove("X-API-Key");
        headers.TryAddWithoutValidation("X-API-Key", _apiKey);
        if (key is not null)
        {
            headers.Remove("Idempotency-Key");
            headers.TryAddWithoutValidation("Idempotency-Key", key);
        }
        if (request.Body is { } body)
        {
            message.Content = new ByteArrayContent(body);
            message.Content.Headers.ContentType = new MediaTypeHeaderValue("application/json") { CharSet = "utf-8" };
        }
        return message;
    }

    private string Url(StoreRequest request)
    {
        var url = new StringBuilder(_baseUrl).Append(request.Path);
        var separator = '?';
        foreach (var pair in request.Query ?? Array.Empty<KeyValuePair<string, string>>())
        {
            url.Append(separator).Append(Uri.EscapeDataString(pair.Key)).Append('=').Append(Uri.EscapeDataString(pair.Value));
            separator = '&';
        }
        return url.ToString();
    }

    private static JsonElement? Parse(byte[] bytes)
    {
        if (bytes.Length == 0) return null;
        try
        {
            using var doc = JsonDocument.Parse(bytes);
            return doc.RootElement.Clone();
        }
        catch (JsonException)
        {
            return null;
        }
    }

    private StoreApiException Refusal(HttpResponseMessage response, int status, JsonElement? root)
    {
        JsonElement error = default;
        var hasError = root is { ValueKind: JsonValueKind.Object } r && r.TryGetProperty("error", out error) && error.ValueKind == JsonValueKind.Object;
        string? Text(string name) => hasError && error.TryGetProperty(name, out var v) && v.ValueKind == JsonValueKind.String ? v.GetString() : null;
        var code = Text("code") ?? status switch { 429 => "rateLimited", 503 => "serviceUnavailable", _ => "unexpectedResponse" };
        var message = Scrub(Text("message") ?? $"The service answered {status} {response.ReasonPhrase}".Trim());
        var details = new List<StoreErrorDetail>();
        if (hasError && error.TryGetProperty("details", out var list) && list.ValueKind == JsonValueKind.Array)
        {
            foreach (var d in list.EnumerateArray())
            {
                string? Field(string name) => d.ValueKind == JsonValueKind.Object && d.TryGetProperty(name, out var v) && v.ValueKind == JsonValueKind.String ? Scrub(v.GetString()!) : null;
                details.Add(new StoreErrorDetail(Field("field"), Field("message") ?? "", d.Clone()));
            }
        }
        var requestId = Text("requestId") ?? (response.Headers.TryGetValues("x-request-id", out var ids) ? string.Join(",", ids) : null);
        return StoreApiException.For(status, code, message, details, requestId, RetryAfter(response));
    }

    private static TimeSpan? RetryAfter(HttpResponseMessage response)
    {
        var header = response.Headers.RetryAfter;
        if (header?.Delta is { } delta) return delta;
        if (header?.Date is { } date) return date - DateTimeOffset.UtcNow is var wait && wait > TimeSpan.Zero ? wait : TimeSpan.Zero;
        return null;
    }

    /// <summary>The answer's Retry-After (at most MaxRetryDelay), else exponential back-off with jitter: about 0.5 s, 1 s, 2 s ... 8 s.</summary>
    private TimeSpan Delay(int attempt, TimeSpan? retryAfter)
    {
        if (retryAfter is { } asked) return asked < _options.MaxRetryDelay ? asked : _options.MaxRetryDelay;
        var ceiling = Math.Min(MaxBackoff.TotalMilliseconds, 500 * Math.Pow(2, attempt));
        return TimeSpan.FromMilliseconds(ceiling / 2 + Jitter() * ceiling / 2);
    }

#if NET6_0_OR_GREATER
    private static double Jitter() => Random.Shared.NextDouble();
#else
    private static readonly Random Shared = new();
    private static double Jitter()
    {
        lock (Shared) return Shared.NextDouble();
    }
#endif

    /// <summary>No connection was made, so the request never left: safe to send again whatever it does.</summary>
    private static bool NotSent(HttpRequestException e)
    {
#if NET8_0_OR_GREATER
        if (e.HttpRequestError is HttpRequestError.NameResolutionError or HttpRequestError.ConnectionError) return true;
#endif
        for (Exception? inner = e; inner is not null; inner = inner.InnerException)
        {
            if (inner is SocketException s && s.SocketErrorCode is SocketError.ConnectionRefused or SocketError.HostNotFound or SocketError.HostUnreachable or SocketError.NetworkUnreachable) return true;
        }
        return false;
    }

    private static string Describe(Exception e)
    {
        var inner = e;
        while (inner.InnerException is not null) inner = inner.InnerException;
        return inner is SocketException s ? s.SocketErrorCode.ToString() : inner.Message;
    }

    /// <summary>The key never leaves in a message, even if a server or proxy echoed it.</summary>
    private string Scrub(string text) => text.Replace(_apiKey, "[redacted]");
}
