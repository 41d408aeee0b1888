using System.Diagnostics;
using System.IO.Compression;
using System.Text.RegularExpressions;
using System.Xml.Linq;

namespace StoreSuppliers.Tests;

/// <summary>`dotnet pack` makes dist/StoreSuppliers.Client.3.2.0.nupkg; a fresh console project installs it from a folder and runs the README's first program.</summary>
public sealed class PackTests(ServiceFixture svc) : FaultTests(svc)
{
    [Fact]
    public async Task The_package_installs_from_a_folder_and_the_README_first_program_runs_paused_and_sent()
    {
        var dist = Path.Combine(ServiceFixture.Root, "dist");
        var nupkg = Path.Combine(dist, "StoreSuppliers.Client.3.2.0.nupkg");
        File.Delete(nupkg);
        await RunAsync("dotnet", ["pack", Path.Combine(ServiceFixture.Root, "dotnet/src/StoreSuppliers.Client"), "-c", "Release", "-o", dist, "--nologo", "-v", "quiet"], ServiceFixture.Root);
        Assert.True(File.Exists(nupkg), $"{nupkg} was not made");

        using (var zip = ZipFile.OpenRead(nupkg))
        {
            var names = zip.Entries.Select(e => e.FullName).ToList();
            foreach (var tfm in new[] { "netstandard2.0", "net8.0", "net10.0" })
            {
                Assert.Contains($"lib/{tfm}/StoreSuppliers.Client.dll", names);
                Assert.Contains($"lib/{tfm}/StoreSuppliers.Client.xml", names);
            }
            Assert.Contains("README.md", names);
            var nuspec = XDocument.Load(zip.Entries.Single(e => e.FullName.EndsWith(".nuspec")).Open());
            XNamespace ns = nuspec.Root!.Name.Namespace;
            Assert.Equal("3.2.0", nuspec.Descendants(ns + "version").Single().Value);
            Assert.Equal("MIT", nuspec.Descendants(ns + "license").Single().Value);
            // Nothing beyond the framework: only netstandard2.0 takes the framework's own compat packages.
            var groups = nuspec.Descendants(ns + "group").ToDictionary(g => (string)g.Attribute("targetFramework")!, g => g.Elements(ns + "dependency").Select(d => (string)d.Attribute("id")!).OrderBy(x => x).ToList());
            Assert.Equal(["Microsoft.Bcl.AsyncInterfaces", "System.Text.Json"], groups[".NETStandard2.0"]);
            Assert.Empty(groups["net8.0"]);
            Assert.Empty(groups["net10.0"]);
        }

        var work = Directory.CreateTempSubdirectory("store-suppliers-scratch-").FullName;
        try
        {
            var feed = Directory.CreateDirectory(Path.Combine(work, "feed")).FullName;
            File.Copy(nupkg, Path.Combine(feed, Path.GetFileName(nupkg)));
            var project = Directory.CreateDirectory(Path.Combine(work, "my-store")).FullName;
            await File.WriteAllTextAsync(Path.Combine(project, "nuget.config"), $"""
                <?xml version="1.0" encoding="utf-8"?>
                <configuration>
                  <packageSources><clear /><add key="local" value="{feed}" /></packageSources>
                </configuration>
                """);
            await File.WriteAllTextAsync(Path.Combine(project, "my-store.csproj"), """
                <Project Sdk="Microsoft.NET.Sdk">
                  <PropertyGroup>
                    <OutputType>Exe</OutputType>
                    <TargetFramework>net10.0</TargetFramework>
                    <ImplicitUsings>enable</ImplicitUsings>
                    <Nullable>enable</Nullable>
                  </PropertyGroup>
                  <ItemGroup><PackageReference Include="StoreSuppliers.Client" Version="3.2.0" /></ItemGroup>
                </Project>
                """);
            await File.WriteAllTextAsync(Path.Combine(project, "Program.cs"), ReadmeFirstProgram());
            // Its own packages folder: never a copy of an earlier 3.2.0 from the machine's cache.
            await RunAsync("dotnet", ["build", "--nologo", "-v", "quiet", "--packages", Path.Combine(work, "packages")], project);
            var env = new Dictionary<string, string> { ["STORE_API_KEY"] = Svc.ApiKey, ["STORE_BASE_URL"] = Svc.BaseUrl, ["STORE_ID"] = Svc.StoreId };

            await Svc.Sandbox.FaultsAsync(new { refuseNext = new { count = 1, message = "Out of stock at the warehouse" } });
            var paused = await RunAsync("dotnet", ["run", "--no-build"], project, env);
            Assert.Matches(@"Key ssk_\S+ of demo@store-suppliers\.local, plan pro, \d+ credits", paused);
            Assert.Matches(@"Order \S+: paused \(supplierRefused, retryable: True\): Out of stock at the warehouse", paused);
            Assert.Contains("needs review:", paused);

            var sent = await RunAsync("dotnet", ["run", "--no-build"], project, env);
            Assert.Matches(@"Order \S+: supplier order \S+ is confirmed, payment paid", sent);
            var before = int.Parse(Regex.Match(paused, @"(\d+) supplier orders in all").Groups[1].Value);
            var after = int.Parse(Regex.Match(sent, @"(\d+) supplier orders in all").Groups[1].Value);
            Assert.Equal(before + 1, after);
        }
        finally
        {
            Directory.Delete(work, recursive: true);
        }
    }

    /// <summary>The first csharp block under "Use it from .NET" in the repository's README, as it is.</summary>
    private static string ReadmeFirstProgram()
    {
        var readme = File.ReadAllText(Path.Combine(ServiceFixture.Root, "README.md"));
        var section = readme[readme.IndexOf("## Use it from .NET", StringComparison.Ordinal)..];
        var block = Regex.Match(section, "```csharp\n(.*?)```", RegexOptions.Singleline);
        Assert.True(block.Success, "README.md has no csharp block under \"Use it from .NET\"");
        return block.Groups[1].Value;
    }

    private static async Task<string> RunAsync(string file, string[] args, string cwd, IDictionary<string, string>? env = null)
    {
        var start = new ProcessStartInfo(file, args) { WorkingDirectory = cwd, RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var (k, v) in env ?? new Dictionary<string, string>()) start.Environment[k] = v;
        using var p = Process.Start(start)!;
        var stdout = p.StandardOutput.ReadToEndAsync();
        var stderr = p.StandardError.ReadToEndAsync();
        using var limit = new CancellationTokenSource(TimeSpan.FromMinutes(4));
        await p.WaitForExitAsync(limit.Token);
        var output = await stdout + await stderr;
        Assert.True(p.ExitCode == 0, $"{file} {string.Join(' ', args)} exited with {p.ExitCode}:\n{output}");
        return output;
    }
}
