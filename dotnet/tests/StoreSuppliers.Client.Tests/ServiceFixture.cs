using System.Diagnostics;
using System.Net;
using System.Net.Http.Json;
using System.Net.Sockets;
using System.Runtime.InteropServices;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;

namespace StoreSuppliers.Tests;

/// <summary>
/// The built service (`node dist/server/main.js`) on a temporary DATA_DIR, with its embedded Postgres and the
/// bundled sandbox supplier, seeded with the demo account as `npm start` does (read from demo.json).
/// </summary>
public sealed class ServiceFixture : IAsyncLifetime
{
    private Process? _process;
    private readonly StringBuilder _output = new();
    private string _dataDir = "";

    public static string Root { get; } = FindRoot();
    public string BaseUrl { get; private set; } = "";
    public string ApiKey { get; private set; } = "";
    public string StaffApiKey { get; private set; } = "";
    public string StoreId { get; private set; } = "";
    public string ConnectionId { get; private set; } = "";
    public string Email { get; private set; } = "";
    public string Password { get; private set; } = "";
    public Sandbox Sandbox { get; private set; } = null!;
    /// <summary>The service's DATA_DIR (its embedded Postgres's data is under pg/), and that Postgres's port.</summary>
    public string DataDir => _dataDir;
    public int PgPort { get; private set; }

    /// <summary>Plain HTTP for what the client does not cover on purpose: sign-in and key management.</summary>
    public HttpClient Raw { get; } = new() { Timeout = TimeSpan.FromSeconds(60) };

    public StoreClient Client(string? apiKey = null, Action<StoreClientOptions>? configure = null)
    {
        var options = new StoreClientOptions { ApiKey = apiKey ?? ApiKey, BaseUrl = BaseUrl };
        configure?.Invoke(options);
        return new StoreClient(options);
    }

    public async Task InitializeAsync()
    {
        var main = Path.Combine(Root, "dist/server/main.js");
        if (!File.Exists(main)) throw new InvalidOperationException($"{main} is missing: run `npm run build:server` first.");
        _dataDir = Directory.CreateTempSubdirectory("store-suppliers-dotnet-").FullName;
        // As root the embedded Postgres runs as the OS user postgres, which must be able to enter the folder.
        if (!OperatingSystem.IsWindows()) File.SetUnixFileMode(_dataDir, (UnixFileMode)Convert.ToInt32("755", 8));
        var start = new ProcessStartInfo(Environment.GetEnvironmentVariable("NODE") ?? "node", [main])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            WorkingDirectory = Root,
        };
        start.Environment.Remove("DATABASE_URL");
        start.Environment["DATA_DIR"] = _dataDir;
        start.Environment["PORT"] = "0";
        PgPort = FreePort();
        start.Environment["EMBEDDED_PG_PORT"] = PgPort.ToString();
        start.Environment["SANDBOX_SUPPLIER_PORT"] = "0";
        start.Environment["SANDBOX_PAYMENTS_PORT"] = "0";
        start.Environment["SANDBOX_EXCHANGE_RATES_PORT"] = "0";
        start.Environment["SANDBOX_SUPPLIER_AUTO_SHIP_MS"] = "0";
        start.Environment["LOG_LEVEL"] = "warn";
        _process = Process.Start(start) ?? throw new InvalidOperationException("node did not start");
        // Both pipes are read all along: a full pipe would stall the service.
        _process.OutputDataReceived += (_, e) => Keep(e.Data);
        _process.ErrorDataReceived += (_, e) => Keep(e.Data);
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();

        var demoFile = Path.Combine(_dataDir, "demo.json");
        var deadline = DateTime.UtcNow.AddSeconds(180);
        JsonNode? demo = null;
        while (demo is null)
        {
            if (_process.HasExited) throw new InvalidOperationException($"The service exited with {_process.ExitCode}:\n{Output}");
            if (DateTime.UtcNow > deadline) throw new TimeoutException($"The service wrote no demo.json within 180 s:\n{Output}");
            try
            {
                if (File.Exists(demoFile)) demo = JsonNode.Parse(await File.ReadAllTextAsync(demoFile));
            }
            catch (JsonException)
            {
                // Still being written.
            }
            if (demo is null) await Task.Delay(200);
        }
        BaseUrl = (string)demo["baseUrl"]!;
        ApiKey = (string)demo["apiKey"]!;
        StaffApiKey = (string)demo["staffApiKey"]!;
        StoreId = (string)demo["storeId"]!;
        ConnectionId = (string)demo["connectionId"]!;
        Email = (string)demo["email"]!;
        Password = (string)demo["password"]!;
        Sandbox = new Sandbox((string)demo["sandboxSupplier"]!["controlUrl"]!, Raw);
    }

    public string Output
    {
        get
        {
            lock (_output) return _output.ToString();
        }
    }

    private void Keep(string? line)
    {
        if (line is null) return;
        lock (_output) _output.AppendLine(line);
    }

    /// <summary>A session of the demo owner, for key management (a key cannot manage keys).</summary>
    public async Task<string> SignInAsync(string? email = null, string? password = null)
    {
        var res = await Raw.PostAsJsonAsync($"{BaseUrl}/api/auth/sign-in", new { email = email ?? Email, password = password ?? Password });
        res.EnsureSuccessStatusCode();
        return (string)(await res.Content.ReadFromJsonAsync<JsonNode>())!["result"]!["sessionToken"]!;
    }

    public async Task<JsonNode> SessionCallAsync(HttpMethod method, string path, string session, object? body = null)
    {
        using var message = new HttpRequestMessage(method, BaseUrl + path);
        message.Headers.Authorization = new System.Net.Http.Headers.AuthenticationHeaderValue("Bearer", session);
        if (body is not null) message.Content = JsonContent.Create(body);
        var res = await Raw.SendAsync(message);
        var text = await res.Content.ReadAsStringAsync();
        if (!res.IsSuccessStatusCode) throw new InvalidOperationException($"{method} {path}: {(int)res.StatusCode} {text}");
        return text.Length == 0 ? new JsonObject() : JsonNode.Parse(text)!;
    }

    /// <summary>A new Developer account on the free plan (100 sign-up credits) and a key of its own.</summary>
    public async Task<(string Key, string Session)> NewFreeDeveloperAsync()
    {
        var email = $"dotnet-{Guid.NewGuid():N}@example.test";
        var password = $"pw-{Guid.NewGuid():N}";
        var up = await Raw.PostAsJsonAsync($"{BaseUrl}/api/auth/sign-up", new { email, password, name = "Free Developer" });
        up.EnsureSuccessStatusCode();
        var session = (string)(await up.Content.ReadFromJsonAsync<JsonNode>())!["result"]!["sessionToken"]!;
        await SessionCallAsync(HttpMethod.Post, "/api/account/developer", session);
        var key = await SessionCallAsync(HttpMethod.Post, "/api/api-keys", session, new { name = "free key", recordScope = "account" });
        return ((string)key["result"]!["key"]!, session);
    }

    public async Task DisposeAsync()
    {
        Raw.Dispose();
        if (_process is { HasExited: false } p)
        {
            // SIGTERM: the service stops its embedded Postgres and sandbox before it exits.
            _ = Kill(p.Id, 15);
            using var wait = new CancellationTokenSource(TimeSpan.FromSeconds(40));
            try
            {
                await p.WaitForExitAsync(wait.Token);
            }
            catch (OperationCanceledException)
            {
                p.Kill(entireProcessTree: true);
            }
        }
        _process?.Dispose();
        try
        {
            Directory.Delete(_dataDir, recursive: true);
        }
        catch (IOException)
        {
            // Left for the OS to clean.
        }
        catch (UnauthorizedAccessException)
        {
        }
    }

    [DllImport("libc", EntryPoint = "kill", SetLastError = true)]
    private static extern int Kill(int pid, int signal);

    public static int FreePort()
    {
        var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var port = ((IPEndPoint)listener.LocalEndpoint).Port;
        listener.Stop();
        return port;
    }

    private static string FindRoot()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            if (File.Exists(Path.Combine(dir.FullName, "package.json")) && Directory.Exists(Path.Combine(dir.FullName, "dotnet"))) return dir.FullName;
        }
        throw new InvalidOperationException("The repository root (package.json beside dotnet/) was not found above the test binaries.");
    }
}

[CollectionDefinition("service")]
public sealed class ServiceCollection : ICollectionFixture<ServiceFixture>
{
}
